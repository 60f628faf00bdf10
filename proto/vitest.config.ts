import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../vitest.shared';

export default defineProject({
  test: { name: 'proto', environment: 'node', passWithNoTests: true, ...sharedTestOptions },
});
