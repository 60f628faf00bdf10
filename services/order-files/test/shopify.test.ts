import { describe, expect, it } from 'vitest';
import { OrderFileError, readOrderFile, validateBulkRow } from '../src/index';
import { ctx, mugPreset, readFixture, utf8 } from './helpers';

const read = (name: string, over = {}) =>
  readOrderFile({ name: 'orders_export.csv', data: readFixture(`shopify/${name}`) }, ctx(over));
/** Rows come out sorted by SKU (as every marketplace's do), so tests compare them in a fixed order of their own. */
const sorted = <T>(items: T[]): T[] =>
  items
    .map((x) => JSON.stringify(x))
    .sort()
    .map((x) => JSON.parse(x) as T);
const rowOf = (rows: ReturnType<typeof read>['rows'], orderId: string, sku: string) =>
  rows.find((r) => r.orderId === orderId && r.skuNumber === sku)!;

describe('the Shopify orders export', () => {
  it('is recognised by its columns and gives one row per line item that needs shipping', () => {
    const result = read('orders_export.csv');
    expect(result.source).toBe('shopify');
    // #1001: mug and tote (the gift card needs no shipping); 1044 is an e-book only; 1045: mugs (the coasters are fulfilled).
    expect(sorted(result.rows.map((r) => [r.orderId, r.orderItemId, r.skuNumber, r.quantity]))).toEqual([
      ['#1001', '1', 'mug-11oz-wht', 2],
      ['#1001', '2', 'tote-canvas', 1],
      ['#1002', '1', 'mug-15oz-blu', 1],
      ['1045', '1', 'mug-11oz-wht', 3],
    ]);
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        '2 line item(s) that need no shipping were left out',
        '1 line item(s) already fulfilled were left out',
      ]),
    );
  });

  it('carries the address of an order’s first row to its follow-on line items, with Address1/2 and codes', () => {
    const { rows } = read('orders_export.csv');
    const [mug, tote, bakery] = [
      rowOf(rows, '#1001', 'mug-11oz-wht'),
      rowOf(rows, '#1001', 'tote-canvas'),
      rowOf(rows, '#1002', 'mug-15oz-blu'),
    ];
    for (const row of [mug, tote]) {
      expect(row).toMatchObject({
        ToRecipientName: 'Mara Quinn',
        ToStreet1: '42 Beacon St',
        ToStreet2: 'Apt 3',
        ToCity: 'Boston',
        ToStateProvince: 'MA',
        ToZipPostal: '02134',
        ToCountry: 'US',
        ToPhone: '+1 617-555-0142',
        PackageReference1: '#1001',
      });
    }
    expect(tote!.PackageDescription).toBe('Harbor Tote');
    expect(bakery).toMatchObject({ ToCompany: 'Park Bakery', ToStreet2: '', ToZipPostal: '60607' });
  });

  it('strips the apostrophe Shopify puts before a ZIP; rows go through the shipment validator', () => {
    const { rows } = read('orders_export.csv');
    expect(sorted(rows.map((r) => [r.orderId, r.ToZipPostal]))).toEqual([
      ['#1001', '02134'],
      ['#1001', '02134'],
      ['#1002', '60607'],
      ['1045', '03755'],
    ]);
    expect(rows.every((r) => r.FromStreet1 === '100 Commerce Way')).toBe(true);
    expect(rows.filter((r) => r.skuNumber !== 'mug-11oz-wht').map((r) => validateBulkRow(r))).toContainEqual(
      expect.arrayContaining([expect.stringMatching(/weight/i)]),
    );
  });

  it('splits by a SKU’s maxQty and sizes from its preset, as for Amazon', () => {
    const { rows } = read('orders_export.csv', { skus: [mugPreset] });
    const mugs = rows.filter((r) => r.skuNumber === 'mug-11oz-wht');
    expect(sorted(mugs.map((r) => [r.orderId, r.quantity, r.PackageWeight]))).toEqual([
      ['#1001', 2, 1.5],
      ['1045', 1, 1.5],
      ['1045', 2, 1.5],
    ]);
    for (const mug of mugs) expect(validateBulkRow(mug)).toEqual([]);
  });

  it('reads a shorter export with fewer columns the same way', () => {
    const result = read('orders_export_short.csv');
    expect(result.source).toBe('shopify');
    expect(sorted(result.rows.map((r) => [r.orderId, r.skuNumber, r.ToCity, r.ToZipPostal]))).toEqual([
      ['#1001', 'mug-11oz-wht', 'Boston', '02134'],
      ['#1001', 'tote-canvas', 'Boston', '02134'],
      ['#1002', 'mug-15oz-blu', 'Chicago', '60607'],
    ]);
  });

  it('names a missing column, and a line item quantity that is not a whole number', () => {
    const header = 'Name,Lineitem quantity,Lineitem sku,Shipping Name,Shipping Address1,Shipping City,Shipping Zip';
    const noProvince = `${header}\n#1,1,a,Ann,1 Main St,Reno,89501\n`;
    expect(() => readOrderFile({ name: 'o.csv', data: utf8(noProvince) }, ctx())).toThrow(
      new OrderFileError('Missing column: Shipping Province'),
    );
    const badQty = `${header},Shipping Province\n#1,two,a,Ann,1 Main St,Reno,89501,NV\n`;
    expect(() => readOrderFile({ name: 'o.csv', data: utf8(badQty) }, ctx())).toThrow(
      'Row 2: Lineitem quantity must be a whole number of at least 1',
    );
  });
});
