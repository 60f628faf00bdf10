import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'order-files', environment: 'node' } });
