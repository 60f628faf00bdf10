import { defineProject } from 'vitest/config';

// isolate: false: the project's files run one after another in the same worker and share its loaded modules.
// Each file starts its own apps, databases and servers and stops them, so only the module loading is shared;
// loading it again for every file was close to half of the project's CPU time.
// expect.poll waits up to 15 s: its own default second is a guess about the machine's speed.
export default defineProject({
  test: {
    name: 'services-pricing',
    environment: 'node',
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 15_000 } },
  },
});
