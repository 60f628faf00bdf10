import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'orders', environment: 'node' } });
