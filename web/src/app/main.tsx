import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createAppRouter } from './router';
import { createAppStore } from './store';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App store={createAppStore()} router={createAppRouter()} />
    </StrictMode>,
  );
}
