import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    // Each file in its own VM context on a shared worker: jsdom and the app's modules are set up per context
    // instead of per process, which halves the project's CPU (116 s to 61 s) with every file still isolated.
    pool: 'vmThreads',
    // Tests address the API as http://localhost/api/..., the origin the http client prefixes.
    environmentOptions: { jsdom: { url: 'http://localhost/' } },
    setupFiles: ['./src/test/web-streams.ts', './src/test/setup.ts'],
    // Tests wait on conditions (src/test/setup.ts gives findBy/waitFor 10 s); 5 s for a whole test was a guess
    // about the machine's speed that a busy two-core machine missed now and then.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll's own second is a guess about the machine's speed; a passing poll never waits this long.
    expect: { poll: { timeout: 15_000 } },
    include: ['src/**/*.test.{ts,tsx}'],
    // The production build runs in Node, in its own project (vitest.build.config.ts).
    exclude: ['src/app/landing-build.test.ts'],
  },
});
