import { defineConfig } from 'vitest/config';

// One run covers every workspace. Each package declares its own project
// (environment, setup files); PostgreSQL is started once for all of them.
export default defineConfig({
  test: {
    globalSetup: ['./services/kit/src/testing/global-setup.ts'],
    projects: ['proto', 'services/*', 'gateway', 'web', 'infra'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
