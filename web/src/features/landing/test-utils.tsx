import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';

/** Renders `element` at `path` with stand-in pages for the routes the landing page links to. */
export function renderAt(element: ReactElement, path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={element} />
        <Route path="/login" element={element} />
        <Route path="/register" element={<h1>Register page</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

/**
 * jsdom never loads images, so `new Image()` would never settle. This stand-in
 * reports the outcome asynchronously, as a browser does.
 */
export function stubImageLoading(outcome: 'load' | 'error' | 'never' = 'load') {
  class FakeImage {
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    set src(_value: string) {
      if (outcome === 'never') return;
      void Promise.resolve().then(() => (outcome === 'load' ? this.onload?.() : this.onerror?.()));
    }
  }
  vi.stubGlobal('Image', FakeImage);
}
