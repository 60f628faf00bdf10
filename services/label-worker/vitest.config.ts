import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'label-worker', environment: 'node' } });
