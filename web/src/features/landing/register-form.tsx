import type { ReactNode } from 'react';

/**
 * Wraps a call-to-action button that leads to /register. With the app running, `onSubmit` does it
 * (the wobble, then the router); on the pre-rendered page before the app's code has arrived, or
 * without scripts, the form itself goes to /register. Lays out as if it were not there.
 */
export function RegisterForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      action="/register"
      method="get"
      className="lp-register-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
