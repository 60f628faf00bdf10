import { describe, expect, test } from 'vitest';
import { MESSAGES } from '../src/domain/messages';
import { fitPriceListToMaxWeight, parsePriceList, priceForWeight, toWirePrices } from '../src/domain/price-list';

const RANGES = MESSAGES.invalidRanges;
const PRICE = MESSAGES.invalidPrice;

function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    const err = e as { code: string; message: string };
    return { code: err.code, message: err.message };
  }
  throw new Error('expected a refusal');
}

describe('a valid price list', () => {
  test('is accepted, sorted by fromWeight and stored in cents', () => {
    const bands = parsePriceList(
      [
        { fromWeight: 10, toWeight: 70, price: 12.5 },
        { fromWeight: 1, toWeight: 10, price: 8.95 },
      ],
      70,
    );
    expect(bands).toEqual([
      { fromWeight: 1, toWeight: 10, priceCents: 895 },
      { fromWeight: 10, toWeight: 70, priceCents: 1250 },
    ]);
  });

  test('may be one flat range from 1 to the maximum, at any price from 0 with up to 2 decimals', () => {
    expect(parsePriceList([{ fromWeight: 1, toWeight: 70, price: 0 }], 70)).toEqual([
      { fromWeight: 1, toWeight: 70, priceCents: 0 },
    ]);
    expect(parsePriceList([{ fromWeight: 1, toWeight: 70, price: 0.1 }], 70)[0]?.priceCents).toBe(10);
    expect(parsePriceList([{ fromWeight: 1, toWeight: 70, price: 29.95 }], 70)[0]?.priceCents).toBe(2995);
    expect(parsePriceList([{ fromWeight: 1, toWeight: 70, price: 1.005 * 2 }], 70)[0]?.priceCents).toBe(201);
  });

  test('may carry numbers as strings, the way form inputs send them', () => {
    expect(parsePriceList([{ fromWeight: '1', toWeight: '70', price: '6.50' }], 70)).toEqual([
      { fromWeight: 1, toWeight: 70, priceCents: 650 },
    ]);
  });

  test('for a 1 lb service is the single range 1..1', () => {
    expect(parsePriceList([{ fromWeight: 1, toWeight: 1, price: 3 }], 1)).toEqual([
      { fromWeight: 1, toWeight: 1, priceCents: 300 },
    ]);
  });

  test('converts back to dollars for the wire', () => {
    expect(toWirePrices([{ fromWeight: 1, toWeight: 70, priceCents: 895 }])).toEqual([
      { fromWeight: 1, toWeight: 70, price: 8.95 },
    ]);
  });
});

describe('a price list is refused with the ranges message when', () => {
  const cases: [string, unknown[]][] = [
    ['it is empty', []],
    ['it does not start at 1', [{ fromWeight: 2, toWeight: 70, price: 5 }]],
    ['it starts at 0', [{ fromWeight: 0, toWeight: 70, price: 5 }]],
    ['it does not end at the maximum weight', [{ fromWeight: 1, toWeight: 60, price: 5 }]],
    ['it ends beyond the maximum weight', [{ fromWeight: 1, toWeight: 71, price: 5 }]],
    [
      'there is a gap between ranges',
      [
        { fromWeight: 1, toWeight: 10, price: 5 },
        { fromWeight: 11, toWeight: 70, price: 6 },
      ],
    ],
    [
      'ranges overlap',
      [
        { fromWeight: 1, toWeight: 10, price: 5 },
        { fromWeight: 9, toWeight: 70, price: 6 },
      ],
    ],
    [
      'two ranges start at the same weight',
      [
        { fromWeight: 1, toWeight: 70, price: 5 },
        { fromWeight: 1, toWeight: 70, price: 6 },
      ],
    ],
    [
      'a range ends where it starts',
      [
        { fromWeight: 1, toWeight: 10, price: 5 },
        { fromWeight: 10, toWeight: 10, price: 6 },
        { fromWeight: 10, toWeight: 70, price: 7 },
      ],
    ],
    ['a range ends below where it starts', [{ fromWeight: 1, toWeight: 0, price: 5 }]],
    ['a single 1..1 range is given for a heavier service', [{ fromWeight: 1, toWeight: 1, price: 5 }]],
    [
      'a weight is not a whole pound',
      [
        { fromWeight: 1, toWeight: 10.5, price: 5 },
        { fromWeight: 10.5, toWeight: 70, price: 6 },
      ],
    ],
    ['a weight is missing', [{ fromWeight: 1, price: 5 }]],
    ['a weight is not a number', [{ fromWeight: 1, toWeight: 'seventy', price: 5 }]],
    ['an item is not an object', [42]],
  ];
  test.each(cases)('%s', (_name, list) => {
    expect(refusal(() => parsePriceList(list, 70))).toEqual({ code: 'PRICING_INVALID_PRICES', message: RANGES });
  });
});

describe('a price list is refused with the price message when', () => {
  const cases: [string, unknown][] = [
    ['a price is negative', -0.01],
    ['a price has more than 2 decimals', 8.955],
    ['a price is missing', undefined],
    ['a price is not a number', 'cheap'],
    ['a price is blank', ''],
  ];
  test.each(cases)('%s', (_name, price) => {
    expect(refusal(() => parsePriceList([{ fromWeight: 1, toWeight: 70, price }], 70))).toEqual({
      code: 'PRICING_INVALID_PRICES',
      message: PRICE,
    });
  });

  test('a price is above $100,000', () => {
    expect(refusal(() => parsePriceList([{ fromWeight: 1, toWeight: 70, price: 100_000.01 }], 70)).message).toBe(
      'Price must be at most $100,000.00',
    );
  });
});

describe('the range a weight falls in', () => {
  const bands = parsePriceList(
    [
      { fromWeight: 1, toWeight: 5, price: 5 },
      { fromWeight: 5, toWeight: 20, price: 10 },
      { fromWeight: 20, toWeight: 70, price: 20 },
    ],
    70,
  );
  test('is the one with fromWeight < w <= toWeight; the first range also holds 1', () => {
    expect(priceForWeight(bands, 1)).toBe(500);
    expect(priceForWeight(bands, 5)).toBe(500);
    expect(priceForWeight(bands, 6)).toBe(1000);
    expect(priceForWeight(bands, 20)).toBe(1000);
    expect(priceForWeight(bands, 21)).toBe(2000);
    expect(priceForWeight(bands, 70)).toBe(2000);
  });
  test('does not exist beyond the last range', () => {
    expect(priceForWeight(bands, 71)).toBeNull();
  });
});

describe('fitting a list to a new maximum weight', () => {
  const bands = [
    { fromWeight: 1, toWeight: 10, priceCents: 500 },
    { fromWeight: 10, toWeight: 70, priceCents: 900 },
  ];
  test('stretches the last range when the maximum grows', () => {
    expect(fitPriceListToMaxWeight(bands, 100)).toEqual([
      { fromWeight: 1, toWeight: 10, priceCents: 500 },
      { fromWeight: 10, toWeight: 100, priceCents: 900 },
    ]);
  });
  test('drops ranges beyond a lower maximum and cuts the last one to it', () => {
    expect(fitPriceListToMaxWeight(bands, 10)).toEqual([{ fromWeight: 1, toWeight: 10, priceCents: 500 }]);
    expect(fitPriceListToMaxWeight(bands, 5)).toEqual([{ fromWeight: 1, toWeight: 5, priceCents: 500 }]);
  });
  test('always yields a list the rules accept', () => {
    for (const max of [1, 2, 10, 11, 70, 150]) {
      const fitted = fitPriceListToMaxWeight(bands, max);
      expect(() => parsePriceList(toWirePrices(fitted), max)).not.toThrow();
    }
  });
});
