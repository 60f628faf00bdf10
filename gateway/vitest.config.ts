import { defineProject } from 'vitest/config';

// isolate: false: the project's files run one after another in the same worker and share its loaded modules
// (see services/kit/vitest.config.ts).
export default defineProject({
  test: { name: 'gateway', environment: 'node', isolate: false, testTimeout: 30_000, hookTimeout: 60_000 },
});
