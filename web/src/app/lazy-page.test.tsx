import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Component, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';

function Ready() {
  return <h1>Orders</h1>;
}

/** Stands in for the router's error page: whatever the page boundary lets through lands here. */
class Outer extends Component<{ children: ReactNode }, { message: string | null }> {
  override state = { message: null as string | null };
  static getDerivedStateFromError(error: Error) {
    return { message: error.message };
  }
  override render() {
    return this.state.message ? <p>Route error: {this.state.message}</p> : this.props.children;
  }
}

describe('a lazily loaded page', () => {
  it('shows a loader while its code downloads, then the page', async () => {
    let arrive: (module: { Ready: typeof Ready }) => void = () => {};
    const Page = lazyPage(
      () => new Promise<{ Ready: typeof Ready }>((resolve) => (arrive = resolve)),
      (m) => m.Ready,
    );
    render(<Page />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();

    await act(async () => arrive({ Ready }));
    expect(await screen.findByRole('heading', { name: 'Orders' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says so when its code cannot be downloaded, and downloads it again on Try again once back online', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let isOnline = false;
    const load = vi.fn(() =>
      isOnline
        ? Promise.resolve({ Ready })
        : Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/orders-x.js')),
    );
    const Page = lazyPage(load, (m) => m.Ready);
    const user = userEvent.setup();
    render(<Page />);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This page could not be loaded');
    expect(alert).toHaveTextContent('Check your connection and try again.');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();

    const failedDownloads = load.mock.calls.length;

    isOnline = true;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Orders' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(failedDownloads + 1);
    vi.restoreAllMocks();
  });

  it('leaves an error of the page itself to the route error page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Broken(): never {
      throw new Error('broken page');
    }
    const Page = lazyPage(
      async () => ({ Broken }),
      (m) => m.Broken,
    );
    render(
      <Outer>
        <Page />
      </Outer>,
    );
    expect(await screen.findByText('Route error: broken page')).toBeInTheDocument();
    expect(screen.queryByText('This page could not be loaded')).not.toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
