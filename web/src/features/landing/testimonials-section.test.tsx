import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StarRating } from './star-rating';
import { TestimonialsSection } from './testimonials-section';

function starFills(rating: HTMLElement): string[] {
  return Array.from(rating.querySelectorAll<HTMLElement>('.lp-star')).map(
    (star) => star.querySelector<HTMLElement>('.lp-star__fill')?.style.width ?? '0%',
  );
}

describe('TestimonialsSection', () => {
  it('shows three customers rated 4.5, 5 and 4 out of 5', () => {
    render(<TestimonialsSection />);
    const ratings = screen.getAllByRole('img', { name: /^Rated .* out of 5$/ });
    expect(ratings.map((rating) => rating.getAttribute('aria-label'))).toEqual([
      'Rated 4.5 out of 5',
      'Rated 5 out of 5',
      'Rated 4 out of 5',
    ]);
  });

  it('gives every card a photo, a name, the role Customer and feedback', () => {
    render(<TestimonialsSection />);
    const cards = screen.getAllByRole('figure');
    expect(cards).toHaveLength(3);
    for (const card of cards) {
      const photo = within(card).getByRole('img', { name: /^Portrait of / });
      expect(photo).toHaveAttribute('src', expect.stringMatching(/^\/landing\/customer-\d\.svg$/));
      expect(within(card).getByText('Customer')).toBeInTheDocument();
      expect(card.querySelector('blockquote')?.textContent?.length).toBeGreaterThan(40);
    }
  });
});

describe('StarRating', () => {
  it('draws a half star for 4.5', () => {
    render(<StarRating value={4.5} />);
    expect(starFills(screen.getByRole('img', { name: 'Rated 4.5 out of 5' }))).toEqual([
      '100%',
      '100%',
      '100%',
      '100%',
      '50%',
    ]);
  });

  it('draws four full stars and one empty for 4', () => {
    render(<StarRating value={4} />);
    expect(starFills(screen.getByRole('img', { name: 'Rated 4 out of 5' }))).toEqual([
      '100%',
      '100%',
      '100%',
      '100%',
      '0%',
    ]);
  });

  it('keeps values on the 0–5 scale, to the nearest half', () => {
    const { rerender } = render(<StarRating value={7} />);
    expect(screen.getByRole('img')).toHaveAccessibleName('Rated 5 out of 5');
    rerender(<StarRating value={3.3} />);
    expect(screen.getByRole('img')).toHaveAccessibleName('Rated 3.5 out of 5');
    rerender(<StarRating value={-1} />);
    expect(screen.getByRole('img')).toHaveAccessibleName('Rated 0 out of 5');
  });
});
