import { AppError } from '@flatship/kit';
import type { PriceRange } from '@flatship/proto';
import { centsToDollars } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { PriceBand } from './types';

/** Keeps every sum of up to 10,000 labels far inside exact integer arithmetic. */
export const MAX_PRICE_CENTS = 10_000_000;

const invalidRanges = () => new AppError('PRICING_INVALID_PRICES', MESSAGES.invalidRanges);
const invalidPrice = () => new AppError('PRICING_INVALID_PRICES', MESSAGES.invalidPrice);

/** A number, or a string holding one (form inputs send either); anything else is NaN. */
function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  return Number.NaN;
}

function toCents(price: unknown): number {
  const dollars = toNumber(price);
  if (!Number.isFinite(dollars) || dollars < 0) throw invalidPrice();
  const cents = Math.round(dollars * 100);
  // 8.95 * 100 is 894.9999999999999: compare with a tolerance far below a cent.
  if (Math.abs(dollars * 100 - cents) > 1e-6) throw invalidPrice();
  if (cents > MAX_PRICE_CENTS) throw new AppError('PRICING_INVALID_PRICES', MESSAGES.priceTooHigh);
  return cents;
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
    const fromWeight = toNumber(r.fromWeight);
    const toWeight = toNumber(r.toWeight);
    if (!Number.isInteger(fromWeight) || !Number.isInteger(toWeight)) throw invalidRanges();
    return { fromWeight, toWeight, priceCents: toCents(r.price) };
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
