import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../app/store';
import { ToastArea } from './toast-area';
import { MAX_TOASTS, toastShown } from './toast-slice';

afterEach(() => vi.useRealTimers());

describe('ToastArea', () => {
  it('closes a toast after 10 s by default, or after its own duration; errors are alerts', () => {
    vi.useFakeTimers();
    const store = createAppStore();
    render(
      <Provider store={store}>
        <ToastArea />
      </Provider>,
    );
    act(() => {
      store.dispatch(toastShown({ message: 'Row updated successfully!', kind: 'success' }));
      store.dispatch(toastShown({ message: 'Failed to delete the row.', kind: 'error', duration: 3000 }));
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to delete the row.');
    expect(screen.getByRole('alert')).toHaveClass('toast--error');

    act(() => vi.advanceTimersByTime(3000));
    expect(screen.queryByText('Failed to delete the row.')).not.toBeInTheDocument();
    expect(screen.getByText('Row updated successfully!')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(6999));
    expect(screen.getByText('Row updated successfully!')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Row updated successfully!')).not.toBeInTheDocument();
  });

  it('shows at most the newest four at once: a burst pushes the oldest out', () => {
    const store = createAppStore();
    render(
      <Provider store={store}>
        <ToastArea />
      </Provider>,
    );
    act(() => {
      for (let i = 1; i <= 6; i++) store.dispatch(toastShown({ message: `Message ${i}` }));
    });
    expect(MAX_TOASTS).toBe(4);
    expect(screen.queryByText('Message 1')).not.toBeInTheDocument();
    expect(screen.queryByText('Message 2')).not.toBeInTheDocument();
    for (let i = 3; i <= 6; i++) expect(screen.getByText(`Message ${i}`)).toBeInTheDocument();
  });
});
