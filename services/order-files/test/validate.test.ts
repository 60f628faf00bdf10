import { describe, expect, it } from 'vitest';
import { emptyBulkRow, parseNumberCell, summarizeValidation, validateBulkRow, validateBulkRows } from '../src/index';
import { validRow } from './rows';

describe('validateBulkRow', () => {
  it('accepts a complete row', () => {
    expect(validateBulkRow(validRow())).toEqual([]);
  });

  it('names every required field that is blank after trimming, in column order', () => {
    expect(validateBulkRow(emptyBulkRow('r1'))).toEqual([
      'Sender name is required',
      'Sender street is required',
      'Sender city is required',
      'Sender state is required',
      'Sender zip is required',
      'Recipient name is required',
      'Recipient street is required',
      'Recipient city is required',
      'Recipient state is required',
      'Recipient zip is required',
      'Length is required',
      'Width is required',
      'Height is required',
      'Weight is required',
    ]);
    expect(validateBulkRow(validRow({ FromSenderName: '   ', ToCity: '\t' }))).toEqual([
      'Sender name is required',
      'Recipient city is required',
    ]);
  });

  it('requires positive package numbers', () => {
    expect(
      validateBulkRow(validRow({ PackageLength: 0, PackageWidth: -3, PackageHeight: Number.NaN, PackageWeight: 0.1 })),
    ).toEqual([
      'Length must be a positive number',
      'Width must be a positive number',
      'Height must be a positive number',
    ]);
  });

  it('requires US states: the 50 for the sender, USPS destinations for the recipient', () => {
    expect(validateBulkRow(validRow({ FromStateProvince: 'ZZ' }))).toEqual(['Sender state must be a US state']);
    expect(validateBulkRow(validRow({ FromStateProvince: 'DC' }))).toEqual(['Sender state must be a US state']);
    expect(validateBulkRow(validRow({ ToStateProvince: 'DC' }))).toEqual([]);
    expect(validateBulkRow(validRow({ ToStateProvince: 'Ontario' }))).toEqual(['Recipient state must be a US state']);
    expect(validateBulkRow(validRow({ FromStateProvince: 'nevada', ToStateProvince: 'ca' }))).toEqual([]);
  });

  it('checks ZIP and phone formats', () => {
    expect(validateBulkRow(validRow({ ToZipPostal: '9440' }))).toEqual([
      'Recipient zip must be a 5-digit ZIP code or ZIP+4',
    ]);
    expect(validateBulkRow(validRow({ FromZipPostal: '89501-12' }))).toEqual([
      'Sender zip must be a 5-digit ZIP code or ZIP+4',
    ]);
    expect(
      validateBulkRow(validRow({ ToZipPostal: '944011234', FromPhone: '(775) 555-0100', ToPhone: '+1 415.555.0142' })),
    ).toEqual([]);
    expect(validateBulkRow(validRow({ ToPhone: 'call me' }))).toEqual([
      'Recipient phone must contain only digits, spaces and hyphens, with an optional leading +',
    ]);
  });

  it('ships within the US only', () => {
    expect(validateBulkRow(validRow({ ToCountry: 'United States', FromCountry: '' }))).toEqual([]);
    expect(validateBulkRow(validRow({ ToCountry: 'CA' }))).toEqual(['Recipient country must be US']);
  });

  it('requires a whole quantity of at least 1', () => {
    expect(validateBulkRow(validRow({ quantity: null }))).toEqual(['Quantity must be a whole number of at least 1']);
    expect(validateBulkRow(validRow({ quantity: 1.5 }))).toEqual(['Quantity must be a whole number of at least 1']);
  });
});

describe('validateBulkRows', () => {
  it('lists only the rows with errors, by index', () => {
    const rows = [validRow(), validRow({ ToRecipientName: '' }), validRow(), validRow({ PackageWeight: null })];
    expect(validateBulkRows(rows, 'USPS Priority Mail')).toEqual([
      { rowIndex: 1, errors: ['Recipient name is required'] },
      { rowIndex: 3, errors: ['Weight is required'] },
    ]);
  });

  it('reports a missing service once, first', () => {
    expect(validateBulkRows([validRow(), validRow({ ToCity: '' })], '  ')).toEqual([
      { rowIndex: -1, errors: ['Service name must be selected from the dropdown'] },
      { rowIndex: 1, errors: ['Recipient city is required'] },
    ]);
    expect(validateBulkRows([validRow()], 'USPS Priority Mail')).toEqual([]);
  });

  it('summarises singular and plural', () => {
    expect(summarizeValidation(1)).toBe('1 row has validation errors');
    expect(summarizeValidation(3)).toBe('3 rows have validation errors');
  });
});

describe('parseNumberCell', () => {
  it.each([
    [12, 12],
    ['12', 12],
    [' 8.5 ', 8.5],
    ['.5', 0.5],
    ['-2', -2],
    ['', null],
    ['  ', null],
    ['abc', null],
    ['12in', null],
    ['1,5', null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    ['Infinity', null],
    [null, null],
    [undefined, null],
    [true, null],
  ])('%j → %j', (input, expected) => {
    expect(parseNumberCell(input)).toBe(expected);
  });
});
