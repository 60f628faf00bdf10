import { defineProject } from 'vitest/config';
import { TEST_TIME_LIMITS } from '../vitest.shared';

export default defineProject({ test: { name: 'gateway', ...TEST_TIME_LIMITS, environment: 'node' } });
