import { AppError } from '@flatship/kit';
import type { DecimalRule, PriceRange } from '@flatship/proto';
import { centsToDollars, parseDecimal } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { PriceBand } from './types';

/** Keeps every sum of up to 10,000 labels far inside exact integer arithmetic. */
export const MAX_PRICE_CENTS = 10_000_000;

const invalidRanges = () => new AppError('PRICING_INVALID_PRICES', MESSAGES.invalidRanges);
const invalidPrice = () => new AppError('PRICING_INVALID_PRICES', MESSAGES.invalidPrice);

// Plain decimal notation only (proto's parseDecimal), as numbers or form text: Number() would read
// '0x10' as 16, '7e1' as 70 and a JSON 1e-308 as a price that rounds to $0.00.
const PRICE: DecimalRule = { decimals: 2, min: 0, max: MAX_PRICE_CENTS / 100 };
/** Range bounds are whole pounds from 1; where they must end is checked against the service below. */
const RANGE_WEIGHT: DecimalRule = { decimals: 0, min: 1 };

function toCents(price: unknown): number {
  const checked = parseDecimal(price, 'Price', PRICE);
  if (checked.ok) return Math.round(checked.value * 100);
  if (checked.problem === 'too-large') throw new AppError('PRICING_INVALID_PRICES', MESSAGES.priceTooHigh);
  throw invalidPrice();
}

function rangeWeight(raw: unknown): number {
  const checked = parseDecimal(raw, 'Weight', RANGE_WEIGHT);
  if (!checked.ok) throw invalidRanges();
  return checked.value;
}

/**
 * The one check every price-list write goes through (spec doc 3 §5): ranges
 * in whole pounds, the first from 1, each next starting where the previous
 * ends, each ending above where it starts, the last at the service's maximum
 * weight; prices 0 or more with at most 2 decimals. Returns the list sorted by
 * fromWeight, in cents.
 */
export function parsePriceList(input: readonly unknown[], maxWeight: number): PriceBand[] {
  if (input.length === 0) throw invalidRanges();
  const bands: PriceBand[] = input.map((item) => {
    if (typeof item !== 'object' || item === null) throw invalidRanges();
    const r = item as Record<string, unknown>;
    return { fromWeight: rangeWeight(r.fromWeight), toWeight: rangeWeight(r.toWeight), priceCents: toCents(r.price) };
  });
  bands.sort((a, b) => a.fromWeight - b.fromWeight);

  const first = bands[0] as PriceBand;
  const last = bands[bands.length - 1] as PriceBand;
  if (first.fromWeight !== 1 || last.toWeight !== maxWeight) throw invalidRanges();
  // A service whose maximum is 1 lb can only have the one range 1..1 (the first range includes its fromWeight).
  const onlyOnePound = bands.length === 1 && maxWeight === 1 && first.toWeight === 1;
  bands.forEach((band, i) => {
    if (band.toWeight <= band.fromWeight && !onlyOnePound) throw invalidRanges();
    const prev = bands[i - 1];
    if (prev && band.fromWeight !== prev.toWeight) throw invalidRanges();
  });
  return bands;
}

/** A weight w is in a range when fromWeight < w <= toWeight; the first range also holds its fromWeight, 1. */
export function priceForWeight(bands: readonly PriceBand[], billedWeight: number): number | null {
  for (const [i, band] of bands.entries()) {
    const inside = band.fromWeight < billedWeight && billedWeight <= band.toWeight;
    if (inside || (i === 0 && billedWeight === band.fromWeight)) return band.priceCents;
  }
  return null;
}

/** One range 1..maxWeight: the flat price the landing page promises. */
export function flatPriceList(maxWeight: number, priceCents: number): PriceBand[] {
  return [{ fromWeight: 1, toWeight: maxWeight, priceCents }];
}

/**
 * When the carrier changes a service's maximum weight the stored list must
 * still end exactly there: ranges starting at or beyond the new maximum go,
 * and the last remaining range is stretched or cut to it.
 */
export function fitPriceListToMaxWeight(bands: readonly PriceBand[], maxWeight: number): PriceBand[] {
  const kept = bands.filter((b, i) => i === 0 || b.fromWeight < maxWeight).map((b) => ({ ...b }));
  const last = kept[kept.length - 1];
  if (last) last.toWeight = maxWeight;
  return kept;
}

export function toWirePrices(bands: readonly PriceBand[]): PriceRange[] {
  return bands.map((b) => ({ fromWeight: b.fromWeight, toWeight: b.toWeight, price: centsToDollars(b.priceCents) }));
}
