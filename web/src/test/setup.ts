import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor wait for a condition; their default second is a guess about how fast the machine is, and
// a first render that loads a page's code can take longer on a busy two-core machine. A passing test never
// waits longer for this; only a failing one reports later.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  // Absent in the few tests that run in Node (the production build's).
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
});
