import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { createAppRouter } from './router';
import { createAppStore } from './store';

const root = document.getElementById('root');
if (root) {
  const app = (
    <StrictMode>
      <App store={createAppStore()} router={createAppRouter()} />
    </StrictMode>
  );
  // index.html carries the landing page pre-rendered (web/prerender/): at / the app hydrates that markup
  // in place. Any other address starts from an empty page (app.html), or replaces what it finds.
  if (window.location.pathname === '/' && root.firstElementChild) hydrateRoot(root, app);
  else createRoot(root).render(app);
}
