import type { PriceRange } from '@flatship/proto';
import { describe, expect, test } from 'vitest';
import { nextRange, PRICE_RANGE_MESSAGES, validatePriceRanges } from './price-ranges';

const r = (fromWeight: number, toWeight: number, price = 5): PriceRange => ({ fromWeight, toWeight, price });
const { invalidRanges, invalidPrice, priceTooHigh } = PRICE_RANGE_MESSAGES;

describe('validatePriceRanges', () => {
  test('continuous ranges from 1 to the maximum weight are valid, in any order', () => {
    expect(validatePriceRanges([r(1, 10), r(10, 40), r(40, 70)], 70)).toBeNull();
    expect(validatePriceRanges([r(40, 70), r(1, 10), r(10, 40)], 70)).toBeNull();
    expect(validatePriceRanges([r(1, 70)], 70)).toBeNull();
  });

  test('the spec message is exactly the text of doc 3 §5', () => {
    expect(invalidRanges).toBe(
      'Invalid price ranges. Please ensure ranges are continuous from 1 to max weight without gaps or overlaps.',
    );
  });

  test('a gap between two ranges', () => {
    expect(validatePriceRanges([r(1, 10), r(12, 70)], 70)).toBe(invalidRanges);
  });

  test('overlapping ranges', () => {
    expect(validatePriceRanges([r(1, 20), r(10, 70)], 70)).toBe(invalidRanges);
    expect(validatePriceRanges([r(1, 70), r(1, 70)], 70)).toBe(invalidRanges);
  });

  test('not starting at 1', () => {
    expect(validatePriceRanges([r(2, 70)], 70)).toBe(invalidRanges);
    expect(validatePriceRanges([r(0, 70)], 70)).toBe(invalidRanges);
  });

  test('not ending at the maximum weight', () => {
    expect(validatePriceRanges([r(1, 69)], 70)).toBe(invalidRanges);
    expect(validatePriceRanges([r(1, 10), r(10, 71)], 70)).toBe(invalidRanges);
  });

  test('an empty list, a range ending where it starts, fractional pounds', () => {
    expect(validatePriceRanges([], 70)).toBe(invalidRanges);
    expect(validatePriceRanges([r(1, 10), r(10, 10), r(10, 70)], 70)).toBe(invalidRanges);
    expect(validatePriceRanges([r(1, 10.5), r(10.5, 70)], 70)).toBe(invalidRanges);
  });

  test('a 1 lb service has the single range 1..1', () => {
    expect(validatePriceRanges([r(1, 1)], 1)).toBeNull();
  });

  test('a negative price', () => {
    expect(validatePriceRanges([r(1, 70, -0.01)], 70)).toBe(invalidPrice);
  });

  test('more than 2 decimals, or no number at all', () => {
    expect(validatePriceRanges([r(1, 70, 4.999)], 70)).toBe(invalidPrice);
    expect(validatePriceRanges([r(1, 70, Number.NaN)], 70)).toBe(invalidPrice);
    expect(validatePriceRanges([r(1, 70, 0.1 + 0.2)], 70)).toBeNull();
    expect(validatePriceRanges([r(1, 70, 0)], 70)).toBeNull();
  });

  test('a price above the maximum', () => {
    expect(validatePriceRanges([r(1, 70, 100_000.01)], 70)).toBe(priceTooHigh);
    expect(validatePriceRanges([r(1, 70, 100_000)], 70)).toBeNull();
  });
});

describe('nextRange', () => {
  test('starts after the highest toWeight and runs to the maximum, priced like that range', () => {
    expect(nextRange([r(10, 30, 7), r(1, 10, 5)], 70)).toEqual({ fromWeight: 30, toWeight: 70, price: 7 });
  });

  test('an empty list gets the whole span from 1', () => {
    expect(nextRange([], 70)).toEqual({ fromWeight: 1, toWeight: 70, price: 0 });
  });

  test('refused once the highest toWeight reaches the maximum', () => {
    expect(nextRange([r(1, 70)], 70)).toBeNull();
    expect(nextRange([r(1, 80)], 70)).toBeNull();
  });
});
