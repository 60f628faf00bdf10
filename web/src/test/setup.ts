import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // Absent in the few tests that run in Node (the production build's).
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
});
