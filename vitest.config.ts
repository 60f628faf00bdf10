import { defineConfig } from 'vitest/config';

// One run covers every workspace. Each package declares its own project
// (environment, setup files); PostgreSQL is started once for all of them.
export default defineConfig({
  test: {
    globalSetup: ['./services/kit/src/testing/global-setup.ts'],
    projects: ['proto', 'services/*', 'gateway', 'web', 'infra', 'infra/e2e'],
    // Two test files at a time: most of a file's time is spent waiting on other processes (PostgreSQL, a
    // stack's services, Chromium), so one file per core less one (Vitest's default, 1 on two cores) left
    // half the machine idle.
    maxWorkers: 2,
    // Time limits: vitest.shared.ts, spread into each project (a project does not inherit these test options).
  },
});
