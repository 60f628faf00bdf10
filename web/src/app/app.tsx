import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { ToastArea } from '../components/toast-area';
import type { AppStore } from './store';
import './theme.css';

type Router = Parameters<typeof RouterProvider>[0]['router'];

/** The whole app for a given store and router (browser router in main.tsx, memory router in tests). */
export function App({ store, router, children }: { store: AppStore; router: Router; children?: ReactNode }) {
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
      <ToastArea />
      {children}
    </Provider>
  );
}
