import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { App } from './app';
import { routes } from './router';
import { createAppStore } from './store';

/**
 * The landing page as HTML, for index.html (run at build time by web/prerender/landing.ts, in Node):
 * the app itself (same store shape, same routes, same tree) at `/`, with a memory router instead of
 * the browser's, so the browser hydrates exactly this markup. Tests hydrate its output too
 * (prerender.test.tsx).
 */
export async function renderLanding(): Promise<string> {
  const render = () =>
    renderToString(
      <StrictMode>
        <App
          store={createAppStore({ runSagas: false })}
          router={createMemoryRouter(routes, { initialEntries: ['/'] })}
        />
      </StrictMode>,
    );
  // The landing's code is a lazy chunk: the first pass starts loading it (and renders the loader in its
  // place), a later one, once it is in, renders the page whole. (React's streaming prerender would wait by
  // itself, but leaves context values behind in the realm it ran in, which breaks rendering there later.)
  const deadline = Date.now() + 30_000;
  for (;;) {
    const html = render();
    if (html.includes('class="lp-page"') && !html.includes('<!--$!-->')) return html;
    if (Date.now() > deadline) throw new Error('prerender: the landing page did not render within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
