import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WOBBLE_MS } from './hero-section';
import { LandingPage } from './landing-page';
import { renderAt, stubImageLoading } from './test-utils';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('LandingPage', () => {
  describe('hero', () => {
    it('shows a spinner until the hero image has loaded, then the hero', async () => {
      stubImageLoading('load');
      renderAt(<LandingPage />);
      expect(screen.getByRole('status')).toHaveTextContent('Loading…');
      expect(screen.queryByRole('button', { name: 'Get Started' })).not.toBeInTheDocument();

      expect(await screen.findByRole('button', { name: 'Get Started' })).toBeInTheDocument();
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('One flat price. Any weight.');
    });

    it('keeps the spinner while the image is still loading', async () => {
      stubImageLoading('never');
      renderAt(<LandingPage />);
      await act(() => Promise.resolve());
      expect(screen.getByRole('status')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Get Started' })).not.toBeInTheDocument();
    });

    it('still shows the hero when the image fails to load', async () => {
      stubImageLoading('error');
      renderAt(<LandingPage />);
      expect(await screen.findByRole('button', { name: 'Get Started' })).toBeInTheDocument();
    });

    it('wobbles the Get Started button, then goes to /register', async () => {
      stubImageLoading('load');
      renderAt(<LandingPage />);
      const button = await screen.findByRole('button', { name: 'Get Started' });
      // Fake the clock only now (findByRole polls with real timers), and click
      // with fireEvent: the async wrappers of testing-library wait on a real timeout.
      vi.useFakeTimers();
      fireEvent.click(button);
      expect(button).toHaveClass('lp-wobble');
      expect(screen.queryByRole('heading', { name: 'Register page' })).not.toBeInTheDocument();

      act(() => vi.advanceTimersByTime(WOBBLE_MS - 50));
      expect(screen.queryByRole('heading', { name: 'Register page' })).not.toBeInTheDocument();

      act(() => vi.advanceTimersByTime(50));
      expect(screen.getByRole('heading', { name: 'Register page' })).toBeInTheDocument();
    });
  });

  it('renders the seven sections in order, each reachable by id', async () => {
    stubImageLoading('load');
    const { container } = renderAt(<LandingPage />);
    await screen.findByRole('button', { name: 'Get Started' });
    const ids = Array.from(container.querySelectorAll('main > section')).map((section) => section.id);
    expect(ids).toEqual(['landing', 'how-it-works', 'why-choose-us', 'pricing', 'faq', 'feedback', 'ready-to-ship']);
  });

  it('has the cards the spec names, in every section', () => {
    stubImageLoading('never');
    renderAt(<LandingPage />);
    const cardTitles = (sectionId: string) =>
      within(document.getElementById(sectionId)!)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent);

    expect(cardTitles('how-it-works')).toEqual(['Sign Up', 'Choose a Service', 'Confirmation', 'Enjoy Your Service']);
    expect(cardTitles('why-choose-us')).toEqual([
      'Unmatched Quality Service',
      'Transparent and Affordable Rates',
      '24/7 Support at Your Fingertips',
    ]);
    expect(cardTitles('pricing')).toEqual(['Transparent Pricing', 'No Hidden Fees', 'Complete Clarity']);
    expect(cardTitles('ready-to-ship')).toEqual(['Fast Delivery', 'Multiple Options']);
    expect(screen.getByRole('heading', { level: 2, name: 'Clear Pricing, No Hidden Fees' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'What Our Customers Say' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Ready to Ship Your Goods?' })).toBeInTheDocument();
  });

  it('gives each Why Choose Us card three points and a customer quote', () => {
    stubImageLoading('never');
    renderAt(<LandingPage />);
    const cards = document.querySelectorAll<HTMLElement>('#why-choose-us article');
    expect(cards).toHaveLength(3);
    for (const card of cards) {
      expect(within(card).getAllByRole('listitem')).toHaveLength(3);
      expect(card.querySelector('blockquote')).not.toBeNull();
    }
  });

  it('makes the promises the product stands behind', () => {
    stubImageLoading('never');
    const { container } = renderAt(<LandingPage />);
    const text = container.textContent ?? '';
    expect(text).toContain('120lb');
    expect(text).toContain('20lb');
    expect(text).toMatch(/overnight/i);
    expect(text).toMatch(/fully automated/i);
    expect(text).toContain('30-day money-back guarantee');
    expect(text).toContain('98% satisfaction guarantee');
    expect(text).toMatch(/24\/7/);
    expect(text).toContain('Bitcoin');
  });

  it('staggers the cards of a section 300 ms apart', () => {
    stubImageLoading('never');
    renderAt(<LandingPage />);
    const delays = Array.from(document.querySelectorAll<HTMLElement>('#how-it-works .lp-card')).map(
      (card) => card.style.transitionDelay,
    );
    expect(delays).toEqual(['0ms', '300ms', '600ms', '900ms']);
  });

  it('goes to /register from Start Shipping Today', async () => {
    stubImageLoading('never');
    const user = userEvent.setup();
    renderAt(<LandingPage />);
    await user.click(screen.getByRole('button', { name: 'Start Shipping Today' }));
    expect(screen.getByRole('heading', { name: 'Register page' })).toBeInTheDocument();
  });
});
