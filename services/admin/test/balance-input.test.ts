import { describe, expect, test } from 'vitest';
import { parseBalanceInput } from '../src/domain/balance-input';

describe('parseBalanceInput', () => {
  test.each([
    [0, 0],
    ['0', 0],
    [12.5, 1250],
    ['12.5', 1250],
    ['12.50', 1250],
    [' 7.05 ', 705],
    [0.1, 10],
    [19.99, 1999],
    [1_000_000, 100_000_000],
    ['001.10', 110],
    ['.5', 50],
  ])('%j is %d cents', (input, cents) => {
    expect(parseBalanceInput(input)).toBe(cents);
  });

  test.each([-0.01, '-5', '1.234', 0.001, '12.', '.', '1,000', '0x10', 'Infinity', Number.NaN, 1e-7])(
    '%j is not a balance',
    (input) => {
      expect(() => parseBalanceInput(input)).toThrow(
        'Balance must be a number of dollars, 0 or more, with at most 2 decimals',
      );
    },
  );

  test.each([1_000_000.01, '1000000.01', 1e21, '12345678'])('%j is above the limit', (input) => {
    expect(() => parseBalanceInput(input)).toThrow('Balance must be at most $1,000,000.00');
  });
});
