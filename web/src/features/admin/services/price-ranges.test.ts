import { describe, expect, it } from 'vitest';
import {
  checkPriceRanges,
  formatPrice,
  INVALID_PRICE_MESSAGE,
  INVALID_RANGES_MESSAGE,
  nextPriceRange,
} from './price-ranges';

const range = (fromWeight: number | string, toWeight: number | string, price: number | string = 5) => ({
  fromWeight,
  toWeight,
  price,
});

describe('checkPriceRanges', () => {
  it('accepts continuous ranges from 1 to the max weight and returns them as numbers', () => {
    expect(checkPriceRanges([range(1, 10, '4.5'), range('10', '70', 9.99)], 70)).toEqual({
      ok: true,
      prices: [range(1, 10, 4.5), range(10, 70, 9.99)],
    });
  });

  it('accepts the single range 1..1 of a one-pound service', () => {
    expect(checkPriceRanges([range(1, 1)], 1).ok).toBe(true);
  });

  it.each([
    ['a gap', [range(1, 10), range(11, 70)], 1],
    ['an overlap', [range(1, 10), range(8, 70)], 1],
    ['a start other than 1', [range(2, 70)], 0],
    ['an end short of the max weight', [range(1, 10), range(10, 60)], 1],
    ['an end beyond the max weight', [range(1, 80)], 0],
    ['a range ending where it starts', [range(1, 10), range(10, 10), range(10, 70)], 1],
    ['a fractional weight', [range(1, 10.5), range(10.5, 70)], 0],
    ['an empty weight', [range(1, ''), range('', 70)], 0],
    ['no ranges at all', [], 0],
  ])('refuses %s with the spec message', (_name, drafts, row) => {
    expect(checkPriceRanges(drafts, 70)).toEqual({
      ok: false,
      problem: 'ranges',
      message: INVALID_RANGES_MESSAGE,
      row,
    });
  });

  it.each([
    ['a negative price', -1],
    ['more than 2 decimals', '1.234'],
    ['an empty price', ''],
    ['text', 'abc'],
  ])('refuses %s', (_name, price) => {
    expect(checkPriceRanges([range(1, 10), range(10, 70, price)], 70)).toEqual({
      ok: false,
      problem: 'price',
      message: INVALID_PRICE_MESSAGE,
      row: 1,
    });
  });

  it('accepts a price of 0 and one with exactly 2 decimals', () => {
    expect(checkPriceRanges([range(1, 10, 0), range(10, 70, '12.34')], 70).ok).toBe(true);
  });
});

describe('nextPriceRange', () => {
  it('starts after the highest toWeight and runs to the max weight with the last price', () => {
    expect(nextPriceRange([range(1, 10, 3), range(10, 20, 4)], 70)).toEqual({ fromWeight: 20, toWeight: 70, price: 4 });
  });

  it('uses the highest toWeight even when the rows are out of order', () => {
    expect(nextPriceRange([range(10, 30, 4), range(1, 10, 3)], 70)?.fromWeight).toBe(30);
  });

  it('is refused once the highest toWeight reaches the max weight', () => {
    expect(nextPriceRange([range(1, 70)], 70)).toBeNull();
    expect(nextPriceRange([range(1, 80)], 70)).toBeNull();
  });

  it('starts an empty list at 1', () => {
    expect(nextPriceRange([], 70)).toEqual({ fromWeight: 1, toWeight: 70, price: 0 });
  });
});

describe('formatPrice', () => {
  it('shows 2 decimals', () => {
    expect(formatPrice(5)).toBe('5.00');
    expect(formatPrice('4.5')).toBe('4.50');
  });
});
