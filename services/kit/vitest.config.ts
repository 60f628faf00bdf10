import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'kit', environment: 'node' } });
