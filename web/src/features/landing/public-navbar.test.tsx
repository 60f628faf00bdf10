import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublicNavbar } from './public-navbar';
import { renderAt } from './test-utils';

const SCROLL_LINKS = ['How It Works', 'Pricing', 'FAQ'];

afterEach(() => vi.restoreAllMocks());

describe('PublicNavbar', () => {
  it('shows the section links on the landing page', () => {
    renderAt(<PublicNavbar />, '/');
    for (const name of SCROLL_LINKS) expect(screen.getByRole('link', { name })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'How It Works' })).toHaveAttribute('href', '#how-it-works');
    expect(screen.getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '#pricing');
    expect(screen.getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '#faq');
  });

  it('hides the section links away from the landing page', () => {
    renderAt(<PublicNavbar />, '/login');
    for (const name of SCROLL_LINKS) expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  it('links the logo home and offers Login and Register', () => {
    renderAt(<PublicNavbar />, '/login');
    expect(screen.getByRole('link', { name: 'Flatship home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  });

  it('goes to /register from the Register link', async () => {
    const user = userEvent.setup();
    renderAt(<PublicNavbar />, '/');
    await user.click(screen.getByRole('link', { name: 'Register' }));
    expect(screen.getByRole('heading', { name: 'Register page' })).toBeInTheDocument();
  });

  it('smoothly scrolls to the section a link names', async () => {
    const user = userEvent.setup();
    const target = document.createElement('section');
    target.id = 'pricing';
    document.body.append(target);
    const scrollIntoView = vi.fn();
    target.scrollIntoView = scrollIntoView;

    renderAt(<PublicNavbar />, '/');
    await user.click(screen.getByRole('link', { name: 'Pricing' }));
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });
    target.remove();
  });

  it('opens and closes the menu from the keyboard', async () => {
    const user = userEvent.setup();
    renderAt(<PublicNavbar />, '/');
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).toContainElement(
      screen.getByRole('link', { name: 'Login' }),
    );

    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Close menu');

    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });
});
