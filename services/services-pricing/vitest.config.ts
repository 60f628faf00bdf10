import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineProject({ test: { name: 'services-pricing', environment: 'node', ...sharedTestOptions } });
