import { type DecimalRule, type PriceRange, parseDecimal } from '@flatship/proto';

/**
 * The price-list rules of spec doc 3 §4–§5, checked in the browser before a
 * save; services-pricing applies the same rules (`parsePriceList`) and has the
 * last word. A weight w falls in a range when fromWeight < w <= toWeight (the
 * first range also holds 1), so each range starts where the previous one ends.
 */

/** Spec doc 3 §5: the one message for any broken list of ranges. */
export const INVALID_RANGES_MESSAGE =
  'Invalid price ranges. Please ensure ranges are continuous from 1 to max weight without gaps or overlaps.';
/** The pricing service's words for a bad price. */
export const INVALID_PRICE_MESSAGE = 'Price must be 0 or more with at most 2 decimals';

/** Spec doc 3 §9: price minimum 0, step 0.01. */
export const PRICE_MIN = 0;
export const PRICE_STEP = 0.01;

const PRICE: DecimalRule = { decimals: 2, min: PRICE_MIN };
const WEIGHT: DecimalRule = { decimals: 0, min: 1 };

/** A range as the editor holds it: the inputs' text, or numbers from the server. */
export interface PriceRangeDraft {
  fromWeight: string | number;
  toWeight: string | number;
  price: string | number;
}

export type PriceRangesCheck =
  | { ok: true; prices: PriceRange[] }
  | { ok: false; problem: 'ranges' | 'price'; message: string; row: number };

const rangesProblem = (row: number): PriceRangesCheck => ({
  ok: false,
  problem: 'ranges',
  message: INVALID_RANGES_MESSAGE,
  row,
});

/**
 * Checks the list in the order shown: whole-pound bounds, the first from 1,
 * each next starting where the previous ends, each ending above where it
 * starts, the last at `maxWeight`; prices 0 or more with at most 2 decimals.
 * `row` is the index of the first offending range.
 */
export function checkPriceRanges(drafts: readonly PriceRangeDraft[], maxWeight: number): PriceRangesCheck {
  if (drafts.length === 0) return rangesProblem(0);
  const prices: PriceRange[] = [];
  for (const [row, draft] of drafts.entries()) {
    const price = parseDecimal(draft.price, 'Price', PRICE);
    if (!price.ok) return { ok: false, problem: 'price', message: INVALID_PRICE_MESSAGE, row };
    const from = parseDecimal(draft.fromWeight, 'From', WEIGHT);
    const to = parseDecimal(draft.toWeight, 'To', WEIGHT);
    if (!from.ok || !to.ok) return rangesProblem(row);
    prices.push({ fromWeight: from.value, toWeight: to.value, price: price.value });
  }
  // A one-pound service has the single range 1..1; everywhere else a range must span something.
  const isOnePound = maxWeight === 1 && prices.length === 1;
  for (const [row, range] of prices.entries()) {
    const previous = prices[row - 1];
    if (row === 0 && range.fromWeight !== 1) return rangesProblem(row);
    if (previous && range.fromWeight !== previous.toWeight) return rangesProblem(row);
    if (range.toWeight <= range.fromWeight && !isOnePound) return rangesProblem(row);
  }
  const lastRow = prices.length - 1;
  if (prices[lastRow]?.toWeight !== maxWeight) return rangesProblem(lastRow);
  return { ok: true, prices };
}

const asNumber = (value: string | number) => (typeof value === 'number' ? value : Number(value));

/**
 * Spec doc 3 §4: a new range starts after the highest current toWeight and
 * runs to `maxWeight`; `null` (refused) once that highest value reaches
 * `maxWeight`. The new range starts with the last range's price.
 */
export function nextPriceRange(drafts: readonly PriceRangeDraft[], maxWeight: number): PriceRangeDraft | null {
  const highest = drafts.reduce(
    (max, d) => {
      const to = asNumber(d.toWeight);
      return Number.isFinite(to) ? Math.max(max, to) : max;
    },
    drafts.length === 0 ? 1 : 0,
  );
  if (highest >= maxWeight) return null;
  const last = drafts[drafts.length - 1];
  return { fromWeight: highest, toWeight: maxWeight, price: last ? last.price : 0 };
}

/** Prices are shown to 2 decimals (spec doc 3 §9). */
export function formatPrice(price: string | number): string {
  const value = asNumber(price);
  return Number.isFinite(value) ? value.toFixed(2) : String(price);
}
