import { defineProject } from 'vitest/config';
import { TEST_TIME_LIMITS } from '../vitest.shared';

export default defineProject({
  test: { name: 'proto', ...TEST_TIME_LIMITS, environment: 'node', passWithNoTests: true },
});
