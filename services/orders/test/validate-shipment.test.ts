import type { OrderCreateBody } from '@flatship/proto';
import { describe, expect, test } from 'vitest';
import { validateBulkItem, validateOrderBody } from '../src/domain/validate-shipment';
import { orderBody } from './support';

const valid = (): OrderCreateBody => orderBody('00000000-0000-4000-8000-000000000001');
const errorsOf = (mutate: (s: OrderCreateBody) => void): string[] => {
  const s = valid();
  mutate(s);
  const r = validateOrderBody(s);
  return r.ok ? [] : r.errors;
};

describe('validateShipment', () => {
  test('a complete order gives a normalised shipment', () => {
    const r = validateOrderBody(valid());
    expect(r).toEqual({
      ok: true,
      shipment: {
        serviceName: 'USPS Priority Mail',
        sender: {
          name: 'Ada Sender',
          company: 'Acme',
          phone: '+1 555-010-0000',
          street1: '1 Main St',
          city: 'Austin',
          state: 'TX',
          zip: '73301',
          country: 'US',
        },
        receiver: {
          name: 'Bob Receiver',
          street1: '2 Side Ave',
          street2: 'Apt 3',
          city: 'Los Angeles',
          state: 'CA',
          zip: '90001',
          country: 'US',
        },
        parcel: { length: 10, width: 8, height: 4, weightLb: 2, description: 'Books', quantity: 1, sku: 'SKU-1' },
      },
    });
  });

  test('a missing service asks to select one, or says what the bulk screen says', () => {
    expect(
      errorsOf((s) => {
        s.service_name = '  ';
      }),
    ).toEqual(['Please select a service']);
    const { user_id: _, ...item } = valid();
    const r = validateBulkItem(
      { ...item, service_name: '', package: { ...item.package, quantity: 1, sku_number: 'SKU-1' } } as never,
      0,
      { serviceMissingMessage: 'Service name must be selected from the dropdown' },
    );
    expect(r).toEqual({ ok: false, errors: ['Service name must be selected from the dropdown'] });
  });

  test('every required address field is named when blank', () => {
    const errors = errorsOf((s) => {
      s.sender = { sender_name: ' ', sender_address1: null, sender_city: '', sender_state_province: '' };
      s.receiver = { receiver_zip_postal: '' };
    });
    expect(errors).toEqual([
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
    ]);
  });

  test('states are US codes or names (any case); a recipient may also be in DC, a territory or at a military post', () => {
    expect(
      errorsOf((s) => {
        s.sender.sender_state_province = 'TE';
      }),
    ).toEqual(['Sender state must be a US state']);
    for (const code of ['DC', 'PR', 'VI', 'GU', 'AS', 'MP', 'AA', 'AE', 'AP']) {
      expect(
        errorsOf((s) => {
          s.receiver.receiver_state_province = code;
        }),
      ).toEqual([]);
    }
    expect(
      errorsOf((s) => {
        s.receiver.receiver_state_province = 'Texas';
      }),
    ).toEqual([]);
    expect(
      errorsOf((s) => {
        s.receiver.receiver_state_province = 'ny';
      }),
    ).toEqual([]);
  });

  test('ZIP is 5 digits or ZIP+4; a numeric ZIP gets its leading zeros back', () => {
    expect(
      errorsOf((s) => {
        s.sender.sender_zip_postal = '1234';
      }),
    ).toEqual(['Sender zip must be a 5-digit ZIP code or ZIP+4']);
    expect(
      errorsOf((s) => {
        s.sender.sender_zip_postal = '12345-67';
      }),
    ).toHaveLength(1);
    expect(
      errorsOf((s) => {
        s.sender.sender_zip_postal = '12345-6789';
      }),
    ).toEqual([]);
    const s = valid();
    s.receiver.receiver_zip_postal = 2134;
    const r = validateOrderBody(s);
    expect(r.ok && r.shipment.receiver.zip).toBe('02134');
  });

  test('only US addresses', () => {
    expect(
      errorsOf((s) => {
        s.receiver.receiver_country = 'CA';
      }),
    ).toEqual(['Recipient country must be US']);
    expect(
      errorsOf((s) => {
        s.receiver.receiver_country = 'usa';
      }),
    ).toEqual([]);
  });

  test.each([
    ['package_length', 'Length'],
    ['package_width', 'Width'],
    ['package_height', 'Height'],
    ['package_weight', 'Weight'],
  ] as const)('%s must be a positive number in plain decimals', (field, label) => {
    for (const bad of [0, -1, '-2']) {
      expect(
        errorsOf((s) => {
          s.package[field] = bad;
        }),
      ).toEqual([`${label} must be a positive number`]);
    }
    // Not a plain decimal is not a positive number (spec doc 2 §5).
    for (const bad of ['abc', '0x10', '1e1', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(
        errorsOf((s) => {
          s.package[field] = bad;
        }),
      ).toEqual([`${label} must be a positive number`]);
    }
    expect(
      errorsOf((s) => {
        s.package[field] = null;
      }),
    ).toEqual([`${label} is required`]);
    expect(
      errorsOf((s) => {
        s.package[field] = '3.5';
      }),
    ).toEqual([]);
  });

  test('no side may exceed 108 inches; the weight ceiling is left to the service', () => {
    expect(
      errorsOf((s) => {
        s.package.package_length = 109;
      }),
    ).toEqual(['Length must be at most 108 inches']);
    expect(
      errorsOf((s) => {
        s.package.package_height = 1e9;
      }),
    ).toEqual(['Height must be at most 108 inches']);
    expect(
      errorsOf((s) => {
        s.package.package_weight = 500;
      }),
    ).toEqual([]);
  });

  test('phone, when given, holds digits, spaces and hyphens with an optional leading plus', () => {
    expect(
      errorsOf((s) => {
        s.sender.sender_phone = '555-CALL';
      }),
    ).toEqual(['Sender phone must contain only digits, spaces and hyphens, with an optional leading +']);
    expect(
      errorsOf((s) => {
        s.receiver.receiver_phone = '+44 20 7946-0000';
      }),
    ).toEqual([]);
  });

  test('texts are at most 200 characters', () => {
    const long = 'x'.repeat(201);
    expect(
      errorsOf((s) => {
        s.receiver.receiver_company = long;
      }),
    ).toEqual(['Recipient company must be at most 200 characters']);
    expect(
      errorsOf((s) => {
        s.package.package_description = long;
      }),
    ).toEqual(['Description must be at most 200 characters']);
    expect(
      errorsOf((s) => {
        s.sender.sender_name = 'x'.repeat(200);
      }),
    ).toEqual([]);
  });

  test('quantity, when given, is a whole number of at least 1', () => {
    for (const bad of ['0', '1.5', 'two', '-3']) {
      expect(
        errorsOf((s) => {
          s.package.package_reference1 = bad;
        }),
      ).toEqual(['Quantity must be a whole number of at least 1']);
    }
    expect(
      errorsOf((s) => {
        s.package.package_reference1 = '';
      }),
    ).toEqual([]);
  });

  test('weight in pounds and courier USPS only', () => {
    expect(
      errorsOf((s) => {
        s.package.package_weight_unit = 'KG';
      }),
    ).toEqual(['Weight must be given in pounds (LB)']);
    expect(
      errorsOf((s) => {
        s.courier = 'fedex';
      }),
    ).toEqual(['Only USPS labels are available']);
  });

  test('no message contains a colon, because the web keeps only what follows one', () => {
    const errors = errorsOf((s) => {
      s.service_name = '';
      s.sender = { sender_state_province: 'ZZ', sender_zip_postal: '1', sender_country: 'MX', sender_phone: 'x' };
      s.receiver = {};
      s.package = { package_length: -1, package_weight_unit: 'g', package_reference1: '0' };
    });
    expect(errors.length).toBeGreaterThan(10);
    for (const e of errors) expect(e).not.toContain(':');
  });
});
