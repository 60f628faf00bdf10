import type { PriceRange } from '@flatship/proto';

/** Spec doc 3 §5; the same texts the pricing service answers with. */
export const PRICE_RANGE_MESSAGES = {
  invalidRanges:
    'Invalid price ranges. Please ensure ranges are continuous from 1 to max weight without gaps or overlaps.',
  invalidPrice: 'Price must be 0 or more with at most 2 decimals',
  priceTooHigh: 'Price must be at most $100,000.00',
} as const;

/** The pricing service refuses anything above this (keeps sums of bulk orders exact in cents). */
export const MAX_PRICE = 100_000;

function hasAtMostTwoDecimals(price: number): boolean {
  // Compare in cents with a tolerance: 0.1 + 0.2 style floats must still count as 2 decimals.
  return Math.abs(price * 100 - Math.round(price * 100)) < 1e-6;
}

/**
 * The rule the server applies (spec doc 3 §5), checked before saving: whole
 * pounds, the first range from 1, each next one starting where the previous
 * ends (a weight w belongs to fromWeight < w <= toWeight), each ending above
 * where it starts, the last at `maxWeight`; prices 0 or more with at most 2
 * decimals. Returns null when the list is valid, else the message to show.
 */
export function validatePriceRanges(ranges: readonly PriceRange[], maxWeight: number): string | null {
  if (ranges.length === 0) return PRICE_RANGE_MESSAGES.invalidRanges;
  for (const { price } of ranges) {
    if (!Number.isFinite(price) || price < 0 || !hasAtMostTwoDecimals(price)) return PRICE_RANGE_MESSAGES.invalidPrice;
    if (price > MAX_PRICE) return PRICE_RANGE_MESSAGES.priceTooHigh;
  }
  const isWholePound = (w: number) => Number.isInteger(w) && w >= 1;
  if (ranges.some((r) => !isWholePound(r.fromWeight) || !isWholePound(r.toWeight))) {
    return PRICE_RANGE_MESSAGES.invalidRanges;
  }
  const sorted = [...ranges].sort((a, b) => a.fromWeight - b.fromWeight);
  const first = sorted[0] as PriceRange;
  const last = sorted[sorted.length - 1] as PriceRange;
  if (first.fromWeight !== 1 || last.toWeight !== maxWeight) return PRICE_RANGE_MESSAGES.invalidRanges;
  // A service whose maximum is 1 lb can only have the one range 1..1.
  const isOnlyOnePound = sorted.length === 1 && maxWeight === 1 && first.toWeight === 1;
  for (const [i, range] of sorted.entries()) {
    if (range.toWeight <= range.fromWeight && !isOnlyOnePound) return PRICE_RANGE_MESSAGES.invalidRanges;
    const prev = sorted[i - 1];
    if (prev && range.fromWeight !== prev.toWeight) return PRICE_RANGE_MESSAGES.invalidRanges;
  }
  return null;
}

/**
 * The range "Add range" appends (spec doc 3 §4): it starts after the highest
 * current toWeight and runs to `maxWeight`, priced like the last range; null
 * once the highest toWeight has reached `maxWeight`.
 */
export function nextRange(ranges: readonly PriceRange[], maxWeight: number): PriceRange | null {
  if (ranges.length === 0) return { fromWeight: 1, toWeight: maxWeight, price: 0 };
  const highest = ranges.reduce((top, r) => (r.toWeight > top.toWeight ? r : top));
  if (!(highest.toWeight < maxWeight)) return null;
  return { fromWeight: highest.toWeight, toWeight: maxWeight, price: highest.price };
}
