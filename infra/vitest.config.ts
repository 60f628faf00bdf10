import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'infra',
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One product stack and one Chromium for the end-to-end files of a run, started when a file first asks.
    globalSetup: ['./e2e/global-setup.ts'],
  },
});
