import type { BulkOrderItem } from '@flatship/proto';
import { BulkOrderItemSchema } from '@flatship/proto';
import { Value } from 'typebox/value';
import { describe, expect, it, test } from 'vitest';
import { type BulkRow, emptyBulkRow, fromBulkOrderItem, toBulkOrderItem, validateBulkRow } from '../src/index';
import { weightUnitProblem } from '../src/rows';

const row: BulkRow = {
  ...emptyBulkRow('row-3'),
  orderId: '0112-33',
  orderItemId: '007',
  skuNumber: 'MUG-1',
  quantity: 2,
  FromSenderName: 'Ada Shipper',
  FromCompany: 'Acme',
  FromPhone: '775 555-0100',
  FromStreet1: '100 Commerce Way',
  FromStreet2: 'Dock 3',
  FromCity: 'Reno',
  FromStateProvince: 'NV',
  FromZipPostal: '89501',
  FromCountry: 'US',
  ToRecipientName: 'Zoë Brontë',
  ToCompany: '',
  ToPhone: '+1 617-555-0163',
  ToStreet1: '88 Peterborough St',
  ToStreet2: '',
  ToCity: 'Boston',
  ToStateProvince: 'MA',
  ToZipPostal: '02215-4610',
  ToCountry: 'US',
  PackageLength: 10,
  PackageWidth: 8,
  PackageHeight: 4,
  PackageWeight: 1.25,
  PackageDescription: 'Mug',
  PackageReference1: '0112-33',
  PackageReference2: 'gift',
};

describe('bulk order items', () => {
  it('maps a row to the spec payload with the picked service, LB and manifested false', () => {
    const item = toBulkOrderItem(row, 'USPS Priority Mail');
    expect(Value.Check(BulkOrderItemSchema, item)).toBe(true);
    expect(item).toMatchObject({
      courier: 'USPS',
      service_name: 'USPS Priority Mail',
      manifested: false,
      sender: {
        order_id: '0112-33',
        sender_name: 'Ada Shipper',
        sender_address2: 'Dock 3',
        sender_zip_postal: '89501',
      },
      receiver: { receiver_name: 'Zoë Brontë', receiver_state_province: 'MA', receiver_zip_postal: '02215-4610' },
      package: {
        order_item_id: '007',
        quantity: 2,
        sku_number: 'MUG-1',
        package_weight: 1.25,
        package_weight_unit: 'LB',
      },
    });
  });

  it('round-trips: fromBulkOrderItem(toBulkOrderItem(row)) is the row', () => {
    const back = fromBulkOrderItem(toBulkOrderItem(row, 'USPS Priority Mail'), 2);
    expect(back).toEqual({ ...row, ServiceName: 'USPS Priority Mail' });
  });

  it('normalises what it sends: trimmed text, state codes, default country', () => {
    const item = toBulkOrderItem({ ...row, ToCity: ' Boston ', ToStateProvince: 'massachusetts', ToCountry: '' }, 'S');
    expect(item.receiver).toMatchObject({
      receiver_city: 'Boston',
      receiver_state_province: 'MA',
      receiver_country: 'US',
    });
  });

  it('reads items sent with numbers as text and numeric ZIPs, for the server to validate', () => {
    const sent: BulkOrderItem = {
      service_name: 'USPS Priority Mail',
      sender: {
        sender_name: 'Ada',
        sender_address1: '1 Main',
        sender_city: 'Reno',
        sender_state_province: 'NV',
        sender_zip_postal: 89501,
      },
      receiver: {
        receiver_name: 'Bo',
        receiver_address1: '2 Main',
        receiver_city: 'Reno',
        receiver_state_province: 'NV',
        receiver_zip_postal: '89502',
      },
      package: {
        order_item_id: null,
        quantity: '3',
        sku_number: null,
        package_length: '10',
        package_width: 5,
        package_height: '2.5',
        package_weight: 'heavy',
        package_weight_unit: 'LB',
        package_description: null,
        package_reference1: null,
        package_reference2: null,
      },
    };
    const back = fromBulkOrderItem(sent, 0);
    expect(back).toMatchObject({
      _id: 'row-1',
      quantity: 3,
      FromZipPostal: '89501',
      FromCountry: 'US',
      PackageLength: 10,
      PackageHeight: 2.5,
      PackageWeight: Number.NaN,
      courier: 'USPS',
    });
    expect(validateBulkRow(back)).toEqual(['Weight must be a positive number']);
  });
});

describe('the weight unit a shipment names', () => {
  test.each(['', 'LB', 'lb', ' lbs ', null, undefined])('%j is pounds', (unit) => {
    expect(weightUnitProblem(unit)).toBeNull();
  });
  test.each(['OZ', 'kg', 'pounds', 5])('%j is refused naming the unit rows hold', (unit) => {
    expect(weightUnitProblem(unit)).toBe('Weight must be given in pounds (LB)');
  });
});
