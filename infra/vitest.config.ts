import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'infra',
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll's own second is a guess about the machine's speed; a passing poll never waits this long.
    expect: { poll: { timeout: 15_000 } },
    // e2e/ is a project of its own (e2e/vitest.config.ts): its files share one stack.
    exclude: [...configDefaults.exclude, 'e2e/**'],
  },
});
