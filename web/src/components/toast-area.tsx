import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { selectToasts, type Toast, toastDismissed } from './toast-slice';
import './components.css';

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const timer = window.setTimeout(() => dispatch(toastDismissed(toast.id)), toast.duration);
    return () => window.clearTimeout(timer);
  }, [dispatch, toast.id, toast.duration]);

  return (
    <div className={`toast toast--${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <span className="toast__message">
        {toast.message}
        {toast.detail ? <span className="toast__detail">{toast.detail}</span> : null}
      </span>
      <button
        type="button"
        className="toast__close"
        aria-label="Dismiss notification"
        onClick={() => dispatch(toastDismissed(toast.id))}
      >
        ×
      </button>
    </div>
  );
}

/** Renders every toast in the store; mount once near the root. */
export function ToastArea() {
  const toasts = useAppSelector(selectToasts);
  return (
    <div className="toast-area" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
