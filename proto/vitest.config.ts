import { defineProject } from 'vitest/config';

// isolate: false: the project's files run one after another in the same worker and share its loaded modules
// (see services/kit/vitest.config.ts).
export default defineProject({
  test: {
    name: 'proto',
    environment: 'node',
    passWithNoTests: true,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll's own second is a guess about the machine's speed; a passing poll never waits this long.
    expect: { poll: { timeout: 15_000 } },
  },
});
