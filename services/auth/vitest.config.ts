import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineProject({ test: { name: 'auth', environment: 'node', ...sharedTestOptions } });
