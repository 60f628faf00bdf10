import { defineConfig } from 'vitest/config';

// One run covers every workspace. Each package declares its own project
// (environment, setup files); PostgreSQL is started once for all of them.
export default defineConfig({
  test: {
    globalSetup: ['./services/kit/src/testing/global-setup.ts'],
    projects: ['proto', 'services/*', 'gateway', 'web', 'web/vitest.build.config.ts', 'infra', 'infra/e2e'],
    // Three test files at a time on a two-core machine: most of a file's time is spent waiting on other processes
    // (PostgreSQL, a stack's services, Chromium), so two files at a time left the machine a third idle.
    maxWorkers: 3,
    // Each project sets testTimeout (30 s) and hookTimeout (60 s) itself: a project referenced by its config
    // file inherits no test option from here, and Vitest's own 5 s and 10 s are missed by a busy two-core
    // machine starting a stack. Tests wait on conditions, so these only say how soon a hopeless one is reported.
  },
});
