import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublicFooter } from './public-footer';
import { renderAt } from './test-utils';

afterEach(() => vi.useRealTimers());

describe('PublicFooter', () => {
  it('shows the current year in the copyright line', () => {
    // A year no one would hard-code, so the line must come from the clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2037-06-15T12:00:00Z'));
    renderAt(<PublicFooter />);
    expect(screen.getByText('© 2037 Flatship. All rights reserved.')).toBeInTheDocument();
  });

  it('links to the community chat in a new tab', () => {
    renderAt(<PublicFooter />);
    const link = screen.getByRole('link', { name: 'Join our community chat' });
    expect(link).toHaveAttribute('href', 'https://t.me/flatship_community');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});
