import { AppError } from '@flatship/kit';
import type { AddressInput } from '@flatship/proto';
import { describe, expect, test } from 'vitest';
import { validateAddress } from '../src/domain/address-rules';
import { ADDRESS_FORM } from './support';

const VALID = ADDRESS_FORM;

function errorOf(input: AddressInput): { code: string; message: string } {
  try {
    validateAddress(input);
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('a valid address', () => {
  test('comes back trimmed, with the state upper-cased and the country as US', () => {
    expect(
      validateAddress({ ...VALID, address_id: '  Warehouse ', name: ' Ada ', state: ' il ', country: ' usa ' }),
    ).toEqual({
      addressId: 'Warehouse',
      name: 'Ada',
      company: 'Engines Ltd',
      phone: '+1 555-010-0199',
      street: '1 Main St',
      street2: 'Suite 4',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
    });
  });

  test('company, street 2 and phone may be missing, null or blank and become empty', () => {
    const { company: _c, street2: _s, phone: _p, ...required } = VALID;
    expect(validateAddress(required)).toMatchObject({ company: '', street2: '', phone: '' });
    expect(validateAddress({ ...VALID, company: null, street2: null, phone: null })).toMatchObject({
      company: '',
      street2: '',
      phone: '',
    });
    expect(validateAddress({ ...VALID, phone: '   ' }).phone).toBe('');
  });

  test.each(['us', 'US', 'USA', 'usa', 'United States', 'united states', 'U.S.A.', 'United States of America'])(
    'country %j is accepted as US',
    (country) => {
      expect(validateAddress({ ...VALID, country }).country).toBe('US');
    },
  );

  test.each(['12345', '12345-6789', ' 02134 '])('ZIP %j is accepted', (zip) => {
    expect(validateAddress({ ...VALID, zip }).zip).toBe(String(zip).trim());
  });

  test('a ZIP sent as a five-digit number is kept as its digits', () => {
    expect(validateAddress({ ...VALID, zip: 90210 }).zip).toBe('90210');
  });

  test.each(['ca', 'Ca', 'WY', 'ak'])('state %j is one of the 50 and stored upper-case', (state) => {
    expect(validateAddress({ ...VALID, state }).state).toBe(state.toUpperCase());
  });
});

describe('required fields', () => {
  test.each([
    ['address_id', 'Address ID is required'],
    ['name', 'Name is required'],
    ['street', 'Street is required'],
    ['city', 'City is required'],
    ['state', 'State is required'],
    ['zip', 'ZIP is required'],
    ['country', 'Country is required'],
  ] as const)('%s missing or blank: %s', (field, message) => {
    const { [field]: _gone, ...without } = VALID;
    expect(errorOf(without)).toEqual({ code: 'ADDRESS_INVALID', message });
    expect(errorOf({ ...VALID, [field]: '   ' })).toEqual({ code: 'ADDRESS_INVALID', message });
  });

  test('problems are reported in the order of the form', () => {
    expect(errorOf({ ...VALID, name: '', city: '', state: 'XX' }).message).toBe('Name is required');
  });
});

describe('formats', () => {
  test.each(['DC', 'PR', 'GU', 'XX', 'Texas', 'T', 'C A', 'ın', ''])('state %j is refused', (state) => {
    const expected = state ? 'State must be a US state (two-letter code)' : 'State is required';
    expect(errorOf({ ...VALID, state })).toEqual({ code: 'ADDRESS_INVALID', message: expected });
  });

  test.each(['1234', '123456', '12345-678', '12345 6789', 'ABCDE', '12345-', '١٢٣٤٥'])('ZIP %j is refused', (zip) => {
    expect(errorOf({ ...VALID, zip })).toEqual({ code: 'ADDRESS_INVALID', message: 'ZIP must be 5 digits or ZIP+4' });
  });

  test.each([2134, 123456, 12345.5, -12345, 0])('ZIP number %j is refused rather than padded or rounded', (zip) => {
    expect(errorOf({ ...VALID, zip })).toEqual({ code: 'ADDRESS_INVALID', message: 'ZIP must be 5 digits or ZIP+4' });
  });

  test.each(['CA', 'Canada', 'MX', 'United Kingdom', 'U S'])('country %j is refused', (country) => {
    expect(errorOf({ ...VALID, country })).toEqual({
      code: 'ADDRESS_INVALID',
      message: 'Only US addresses are supported',
    });
  });

  test.each(['555-0100', '+1 555 0100', '5550100'])('phone %j is accepted', (phone) => {
    expect(validateAddress({ ...VALID, phone }).phone).toBe(phone);
  });

  test.each(['call me', '(555) 0100', '555.0100', '++1 555', '555+0100'])('phone %j is refused', (phone) => {
    expect(errorOf({ ...VALID, phone })).toEqual({ code: 'ADDRESS_INVALID', message: 'Invalid phone number' });
  });
});

describe('lengths', () => {
  test.each([
    ['address_id', 'Address ID'],
    ['name', 'Name'],
    ['company', 'Company'],
    ['phone', 'Phone'],
    ['street', 'Street'],
    ['street2', 'Street 2'],
    ['city', 'City'],
    ['state', 'State'],
    ['zip', 'ZIP'],
    ['country', 'Country'],
  ] as const)('%s over 200 characters is refused naming %s', (field, label) => {
    const long = field === 'phone' || field === 'zip' ? '1'.repeat(201) : 'a'.repeat(201);
    expect(errorOf({ ...VALID, [field]: long })).toEqual({
      code: 'ADDRESS_INVALID',
      message: `${label} must be at most 200 characters`,
    });
  });

  test('exactly 200 characters is fine, and surrounding spaces do not count', () => {
    const name = 'n'.repeat(200);
    expect(validateAddress({ ...VALID, name: `  ${name}  ` }).name).toBe(name);
  });
});
