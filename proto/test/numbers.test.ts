import { describe, expect, test } from 'vitest';
import { NUMBER_RULES, parseDecimal, readDecimal } from '../src/numbers';

const weight = (raw: unknown) => parseDecimal(raw, 'Weight', NUMBER_RULES.parcelWeightLb);

describe('plain decimal notation', () => {
  test.each([
    ['2', 2],
    ['2.5', 2.5],
    ['0.06', 0.06],
    [' 12 ', 12],
    ['007', 7],
    ['.5', 0.5],
    [16, 16],
    [2.25, 2.25],
    ['69.99', 69.99],
  ])('%j is the weight %d', (raw, value) => {
    expect(weight(raw)).toEqual({ ok: true, value });
  });

  test.each([
    '0x10',
    '0X10',
    '0o10',
    '0b10',
    '1e3',
    '1E3',
    '1e-308',
    'Infinity',
    '-Infinity',
    'NaN',
    '+5',
    '.',
    '-.',
    '5.',
    '1,000',
    '1 000',
    '12lb',
    '٣',
    '9'.repeat(400),
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    {},
    [2],
  ])('%j is not a number', (raw) => {
    expect(weight(raw)).toEqual({ ok: false, problem: 'format', message: 'Weight must be a number like 12 or 2.5' });
  });

  test.each([1e-308, '0.0000001', 0.0000001, '12.345', 12.345, 0.1 + 0.2])('%j has too many decimals', (raw) => {
    expect(weight(raw)).toEqual({
      ok: false,
      problem: 'too-precise',
      message: 'Weight can have at most 2 decimal places',
    });
  });

  test.each(['-1', -1, '0', 0, -0, '-0', '-0.5'])('%j is not above 0', (raw) => {
    expect(weight(raw)).toMatchObject({ ok: false, problem: 'too-small', message: 'Weight must be greater than 0' });
  });

  test.each([null, undefined, '', '   '])('%j is blank', (raw) => {
    expect(weight(raw)).toMatchObject({ ok: false, problem: 'blank', message: 'Weight is required' });
  });

  test('limits, whole numbers and messages the caller words itself', () => {
    const side = (raw: unknown) => parseDecimal(raw, 'Length', NUMBER_RULES.parcelDimensionIn);
    expect(side('108')).toEqual({ ok: true, value: 108 });
    expect(side('108.01')).toMatchObject({ problem: 'too-large', message: 'Length must be at most 108 inches' });
    expect(side(1e21)).toMatchObject({ problem: 'too-large' });
    const qty = (raw: unknown) => parseDecimal(raw, 'Quantity', NUMBER_RULES.quantity);
    expect(qty('3')).toEqual({ ok: true, value: 3 });
    expect(qty('0x3')).toMatchObject({ problem: 'format', message: 'Quantity must be a whole number like 3' });
    expect(qty('1.5')).toMatchObject({ problem: 'too-precise', message: 'Quantity must be a whole number' });
    expect(qty('0')).toMatchObject({ problem: 'too-small', message: 'Quantity must be at least 1' });
    expect(
      parseDecimal('-1', 'Weight', NUMBER_RULES.parcelWeightLb, { 'too-small': 'Weight must be a positive number' }),
    ).toMatchObject({ message: 'Weight must be a positive number' });
  });

  test('readDecimal counts the decimals of text and of JSON numbers alike', () => {
    expect(readDecimal('2.50')).toEqual({ value: 2.5, decimals: 2 });
    expect(readDecimal(2.5)).toEqual({ value: 2.5, decimals: 1 });
    expect(readDecimal(1.5e-7)).toEqual({ value: 1.5e-7, decimals: 8 });
    expect(readDecimal(1e21)).toEqual({ value: 1e21, decimals: 0 });
    expect(readDecimal('-3')).toEqual({ value: -3, decimals: 0 });
  });
});
