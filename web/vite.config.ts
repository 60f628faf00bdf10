import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compressBuild } from './prerender/compress';
import { prerenderLanding } from './prerender/landing';

// In development the SPA talks to the gateway started by `make start`.
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), prerenderLanding(), compressBuild()],
  server: {
    proxy: {
      '/api': gateway,
      '/socket.io': { target: gateway, ws: true },
    },
  },
  build: { outDir: 'dist', sourcemap: true },
});
