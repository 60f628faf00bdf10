import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HERO_IMAGE_URL } from '../features/landing/hero-section';
import { stubImageLoading } from '../features/landing/test-utils';
import { IN_VIEW_THRESHOLD } from '../features/landing/use-in-view';
import { setupTestServer } from '../test/msw';
import { App } from './app';
import { renderLanding } from './prerender';
import { routes } from './router';
import { createAppStore } from './store';

setupTestServer();

const BOOT_SCRIPT = readFileSync(join(import.meta.dirname, '../../prerender/landing-boot.js'), 'utf8');

/** An IntersectionObserver the test moves: `scrollIntoView(el)` reports `el` as 10% visible to whoever watches it. */
class FakeIntersectionObserver {
  static all: FakeIntersectionObserver[] = [];
  readonly watched = new Set<Element>();
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    FakeIntersectionObserver.all.push(this);
  }
  observe(element: Element) {
    this.watched.add(element);
  }
  unobserve(element: Element) {
    this.watched.delete(element);
  }
  disconnect() {
    this.watched.clear();
  }
  takeRecords() {
    return [];
  }
  static scrollIntoView(element: Element) {
    for (const observer of FakeIntersectionObserver.all.filter((o) => o.watched.has(element))) {
      const entry = { target: element, isIntersecting: true, intersectionRatio: 0.1 } as IntersectionObserverEntry;
      observer.callback([entry], observer as unknown as IntersectionObserver);
    }
  }
}

let reactRoot: Root | null = null;

afterEach(() => {
  if (reactRoot) act(() => reactRoot?.unmount());
  reactRoot = null;
  FakeIntersectionObserver.all = [];
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** index.html's #root as the build writes it. */
async function loadPrerenderedPage(): Promise<HTMLElement> {
  const markup = await renderLanding();
  document.body.innerHTML = `<div id="root">${markup}</div>`;
  return document.getElementById('root')!;
}

/** What main.tsx does at `/`: the app hydrates the pre-rendered markup. */
function hydrateApp(root: HTMLElement, onRecoverableError: (error: unknown) => void) {
  const app = (
    <StrictMode>
      <App
        store={createAppStore({ socket: { socketUrl: null } })}
        router={createMemoryRouter(routes, { initialEntries: ['/'] })}
      />
    </StrictMode>
  );
  act(() => {
    reactRoot = hydrateRoot(root, app, { onRecoverableError });
  });
}

describe('the landing page pre-rendered into index.html', () => {
  it('carries the whole landing, with real links to sign in and register, before any script runs', async () => {
    const root = await loadPrerenderedPage();
    const nav = within(root.querySelector('header')!);
    expect(nav.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(nav.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(nav.getByRole('link', { name: 'Flatship home' })).toHaveAttribute('href', '/');
    expect(nav.getByRole('link', { name: 'How It Works' })).toHaveAttribute('href', '#how-it-works');
    expect(nav.getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '#pricing');
    expect(nav.getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '#faq');

    // Get Started and Start Shipping Today lead to /register without the app too.
    for (const name of ['Get Started', 'Start Shipping Today']) {
      const button = within(root).getByRole('button', { name, hidden: true });
      expect(button).toHaveAttribute('type', 'submit');
      expect(button.closest('form')).toHaveAttribute('action', '/register');
    }

    const ids = Array.from(root.querySelectorAll('main > section')).map((section) => section.id);
    expect(ids).toEqual(['landing', 'how-it-works', 'why-choose-us', 'pricing', 'faq', 'feedback', 'ready-to-ship']);
    const text = root.textContent ?? '';
    expect(text).toContain('One flat price. Any weight.');
    expect(text).toContain('30-day money-back guarantee');
    expect(text).toContain('98% satisfaction guarantee');
    expect(text).toContain('Why do you accept payment in Bitcoin?');
    expect(text).toContain(`© ${new Date().getFullYear()} Flatship. All rights reserved.`);
    // The hero waits for its image (spec): its spinner shows, its text is in the page but hidden.
    expect(within(root).getByRole('status')).toHaveTextContent('Loading…');
    expect(root.querySelector('.lp-hero__inner')).toHaveAttribute('hidden');
  });

  it('is hydrated by the app in place: no mismatch, the same elements, and then it works', async () => {
    stubImageLoading('load');
    const root = await loadPrerenderedPage();
    const login = within(root).getByRole('link', { name: 'Login' });
    const errors = vi.fn();
    const consoleErrors = vi.spyOn(console, 'error');

    hydrateApp(root, errors);
    // The hero appears once the image has loaded: the landing's code is running.
    expect(await screen.findByRole('button', { name: 'Get Started' })).toBeInTheDocument();
    const question = screen.getByRole('button', { name: 'Why do you accept payment in Bitcoin?' });
    await userEvent.click(question);
    expect(question).toHaveAttribute('aria-expanded', 'true');

    expect(screen.getByRole('link', { name: 'Login' })).toBe(login);
    expect(errors).not.toHaveBeenCalled();
    expect(consoleErrors).not.toHaveBeenCalled();
  });

  it('runs the entrance until the app arrives, and the app goes on from where it got', async () => {
    stubImageLoading('load');
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    const root = await loadPrerenderedPage();
    expect(BOOT_SCRIPT).toContain(`'${HERO_IMAGE_URL}'`);
    expect(BOOT_SCRIPT).toContain(`threshold: ${IN_VIEW_THRESHOLD}`);

    // The entrance script: the hero once its image is in, a section once 10% of it is in view.
    new Function(BOOT_SCRIPT)();
    await waitFor(() => expect(root.querySelector('#landing')).toHaveAttribute('data-image', 'loaded'));
    expect(root.querySelector('.lp-hero__inner')).not.toHaveAttribute('hidden');
    expect(within(root).queryByRole('status')).not.toBeInTheDocument();
    FakeIntersectionObserver.scrollIntoView(root.querySelector('#how-it-works')!);
    expect(root.querySelector('#how-it-works')).toHaveClass('is-visible');
    expect(root.querySelector('#pricing')).not.toHaveClass('is-visible');

    const errors = vi.fn();
    const consoleErrors = vi.spyOn(console, 'error');
    stubImageLoading('never');
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    hydrateApp(root, errors);
    const getStarted = await screen.findByRole('button', { name: 'Get Started' });
    expect(getStarted).toBeVisible();
    await waitFor(() => expect(FakeIntersectionObserver.all.length).toBeGreaterThan(1));

    // The entrance script stopped watching; nothing replayed, nothing hidden again; the rest is the app's.
    expect(FakeIntersectionObserver.all[0]!.watched.size).toBe(0);
    expect(root.querySelector('#how-it-works')).toHaveClass('is-visible');
    expect(root.querySelector('#pricing')).not.toHaveClass('is-visible');
    act(() => FakeIntersectionObserver.scrollIntoView(root.querySelector('#pricing')!));
    expect(root.querySelector('#pricing')).toHaveClass('is-visible');
    expect(errors).not.toHaveBeenCalled();
    expect(consoleErrors).not.toHaveBeenCalled();
  });
});
