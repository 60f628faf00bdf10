import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'proto', environment: 'node', passWithNoTests: true, testTimeout: 30_000, hookTimeout: 60_000 },
});
