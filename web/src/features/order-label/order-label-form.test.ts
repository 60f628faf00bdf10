import { describe, expect, it } from 'vitest';
import { clampWeight, priceWeight } from './order-label-form';

describe('weights typed in the order form', () => {
  it('are clamped only when they are plain decimals', () => {
    expect(clampWeight('95', 70)).toBe('70');
    expect(clampWeight('2.5', 70)).toBe('2.5');
    // Number('1e3') is 1000: clamping it would turn a typo into the heaviest parcel.
    expect(clampWeight('1e3', 70)).toBe('1e3');
    expect(clampWeight('0x10', 70)).toBe('0x10');
  });

  it('are priced at 1 lb when they are not a weight (spec doc 1 §7)', () => {
    expect(priceWeight('12')).toBe(12);
    expect(priceWeight(' 2.5 ')).toBe(2.5);
    for (const typed of ['', '0', '-3', '0x10', '1e1', 'Infinity']) expect(priceWeight(typed)).toBe(1);
  });
});
