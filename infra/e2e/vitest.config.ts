import { defineProject } from 'vitest/config';

// End-to-end tests of the whole product. They share one stack and one Chromium for the run (global-setup.ts),
// started when a file first asks; a project of their own, so a run schedules them together and the stack stops
// once they are done rather than idling through the rest of the run.
export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll's own second is a guess about the machine's speed; a passing poll never waits this long.
    expect: { poll: { timeout: 15_000 } },
    globalSetup: ['./global-setup.ts'],
  },
});
