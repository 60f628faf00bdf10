import { Component, type ComponentType, type ErrorInfo, lazy, type ReactNode, Suspense } from 'react';
import { Loader } from '../components/spinner';

/** A page's code could not be downloaded (offline, or a deploy replaced the file it names). */
export class PageLoadError extends Error {
  constructor(cause: unknown) {
    super('The page could not be loaded', { cause });
    this.name = 'PageLoadError';
  }
}

const pageLoaders: (() => Promise<unknown>)[] = [];

/** Downloads every lazily loaded page's code now (tests: the first render of a page then waits for nothing but the page). */
export async function preloadPages(): Promise<void> {
  await Promise.all(pageLoaders.map((load) => load()));
}

/**
 * A page whose code is its own chunk, downloaded the first time the page is shown: a loader
 * stands in meanwhile, and a failed download shows as such with a way to try again. Each page
 * is its own component, so going from one page to another mounts a new boundary, which shows
 * the loader at once instead of keeping the previous page on screen while the next one downloads.
 * A failed download stays failed (React renders the failure, not an endless loader) until Try again,
 * which downloads again.
 */
export function lazyPage<M, P extends object = object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): ComponentType<P> {
  pageLoaders.push(load);
  const make = () =>
    lazy(() =>
      load().then(
        (module) => ({ default: pick(module) }),
        (error: unknown) => {
          throw new PageLoadError(error);
        },
      ),
    );
  let current = make();
  /** Reads `current` when it mounts: after Try again, a fresh lazy component downloads anew. */
  function Current(props: P) {
    const Page = current;
    return <Page {...props} />;
  }
  function LazyPage(props: P) {
    return (
      <PageLoadBoundary
        onRetry={() => {
          current = make();
        }}
      >
        <Suspense fallback={<Loader />}>
          <Current {...props} />
        </Suspense>
      </PageLoadBoundary>
    );
  }
  return LazyPage;
}

interface BoundaryState {
  error: PageLoadError | null;
}

/** Shows a page that failed to download as such, with a way to try again; any other error goes on up. */
export class PageLoadBoundary extends Component<{ children: ReactNode; onRetry: () => void }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    if (error instanceof PageLoadError) return { error };
    throw error;
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo) {
    console.warn('A page could not be loaded', error instanceof Error ? error.cause : error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="route-message" role="alert">
        <h2>This page could not be loaded</h2>
        <p>
          Check your connection and try again. If Flatship was just updated, reloading the page gets the new version.
        </p>
        <div className="route-message__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              this.props.onRetry();
              this.setState({ error: null });
            }}
          >
            Try again
          </button>
          <button type="button" className="button button--ghost" onClick={() => window.location.reload()}>
            Reload the page
          </button>
        </div>
      </div>
    );
  }
}
