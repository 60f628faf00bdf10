import { defineProject } from 'vitest/config';

// The web app's production build (Vite, Rolldown) checked in plain Node: bundlers compare their plugin objects
// across one realm, which the main project's VM contexts would split.
export default defineProject({
  test: {
    name: 'web-build',
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    include: ['src/app/landing-build.test.ts'],
  },
});
