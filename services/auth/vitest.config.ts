import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'auth', environment: 'node' } });
