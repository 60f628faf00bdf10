import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useInView } from './use-in-view';

function Probe() {
  const [ref, inView] = useInView<HTMLDivElement>();
  return <div ref={ref} data-testid="probe" data-in-view={inView} />;
}

type Callback = (entries: Array<{ isIntersecting: boolean }>) => void;

function stubIntersectionObserver() {
  const instances: Array<{ callback: Callback; options: IntersectionObserverInit | undefined; disconnected: boolean }> =
    [];
  class FakeIntersectionObserver {
    private readonly record;
    constructor(callback: Callback, options?: IntersectionObserverInit) {
      this.record = { callback, options, disconnected: false };
      instances.push(this.record);
    }
    observe() {}
    disconnect() {
      this.record.disconnected = true;
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  return instances;
}

afterEach(() => vi.unstubAllGlobals());

describe('useInView', () => {
  it('counts as visible when IntersectionObserver does not exist', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Probe />);
    expect(screen.getByTestId('probe')).toHaveAttribute('data-in-view', 'true');
  });

  it('turns visible once 10% of the element is on screen, and stays so', () => {
    const observers = stubIntersectionObserver();
    render(<Probe />);
    const probe = screen.getByTestId('probe');
    expect(probe).toHaveAttribute('data-in-view', 'false');
    expect(observers[0]?.options?.threshold).toBe(0.1);

    act(() => observers[0]?.callback([{ isIntersecting: false }]));
    expect(probe).toHaveAttribute('data-in-view', 'false');

    act(() => observers[0]?.callback([{ isIntersecting: true }]));
    expect(probe).toHaveAttribute('data-in-view', 'true');
    expect(observers[0]?.disconnected).toBe(true);
  });
});
