import { describe, expect, it } from 'vitest';
import { OrderFileError, readOrderFile, validateBulkRow } from '../src/index';
import { repairMojibake } from '../src/mojibake';
import { ctx, mugPreset, readFixture, utf8 } from './helpers';

const read = (name: string, over = {}) => readOrderFile({ name, data: readFixture(`etsy/${name}`) }, ctx(over));

describe('the Etsy sold orders file', () => {
  it('gives one package per unshipped order: Number of Items of its SKU, the country name as a code', () => {
    const result = read('EtsySoldOrders2026-12.csv');
    expect(result.source).toBe('etsy');
    expect(result.rows.map((r) => [r.orderId, r.skuNumber, r.quantity, r.ToCountry])).toEqual([
      ['3301000101', 'mug-11oz-wht', 2, 'US'],
      ['3301000102', 'mug-15oz-blu,tote-canvas', 2, 'US'],
    ]);
    expect(result.rows[0]).toMatchObject({
      ToRecipientName: 'Mara Quinn',
      ToStreet1: '42 Beacon St',
      ToStreet2: 'Apt 3',
      ToCity: 'Boston',
      ToStateProvince: 'MA',
      ToZipPostal: '02134',
      PackageReference1: '3301000101',
    });
    expect(result.rows[1]!.ToZipPostal).toBe('60607-1234');
    expect(result.warnings).toContain('1 order(s) already shipped were left out');
    expect(result.warnings).toContain(
      'Order(s) 3301000102 hold several SKUs, so each is one package of all its items: check its size, or load the Etsy Sold Order Items file for a package per item.',
    );
  });

  it('sizes and splits an order of one SKU by its preset', () => {
    const { rows } = read('EtsySoldOrders2026-12.csv', { skus: [{ ...mugPreset, maxQty: 1 }] });
    expect(rows.map((r) => [r.orderId, r.quantity, r.PackageWeight])).toEqual([
      ['3301000101', 1, 1.5],
      ['3301000101', 1, 1.5],
      ['3301000102', 2, null],
    ]);
    expect(validateBulkRow(rows[0]!)).toEqual([]);
  });

  it('reads a file re-saved by Excel: tab-delimited, Windows-1252 with mojibake, 4-digit ZIPs', () => {
    const result = read('EtsySoldOrders-excel.txt');
    expect(result.source).toBe('etsy');
    expect(result.rows.map((r) => [r.ToRecipientName, r.ToZipPostal, r.ToStateProvince])).toEqual([
      ['José Muñoz', '04101', 'ME'],
      ['Zoë Brandt', '07042', 'NJ'],
    ]);
    // The same file named .csv (Excel keeps the name) is sniffed as tab-delimited.
    const asCsv = readOrderFile({ name: 'sold.csv', data: readFixture('etsy/EtsySoldOrders-excel.txt') }, ctx());
    expect(asCsv.rows.map((r) => r.ToRecipientName)).toEqual(['José Muñoz', 'Zoë Brandt']);
  });

  it('reads a UK-locale shop’s Delivery City/State/Zipcode/Country', () => {
    const { rows, source } = read('EtsySoldOrders-uk.csv');
    expect(source).toBe('etsy');
    expect(rows[0]).toMatchObject({ ToCity: 'Seattle', ToStateProvince: 'WA', ToZipPostal: '98101', ToCountry: 'US' });
  });

  it('reads the sold order items file: a package per unshipped transaction', () => {
    const result = read('EtsySoldOrderItems2026-12.csv');
    expect(result.source).toBe('etsy');
    expect(result.rows.map((r) => [r.orderId, r.orderItemId, r.quantity, r.PackageDescription, r.ToCity])).toEqual([
      ['3301000102', '4100000201', 1, 'Harbor Mug - Color:Blue,Size:15oz', 'Chicago'],
      ['3301000102', '4100000202', 1, 'Harbor Tote', 'Chicago'],
    ]);
    expect(result.warnings).toContain('1 order(s) already shipped were left out');
  });

  it('refuses a country other than the US by name, through the one validator', () => {
    const text =
      'Order ID,Full Name,Number of Items,Date Shipped,Street 1,Ship City,Ship State,Ship Zipcode,Ship Country\n9,Ann Roe,1,,1 King St,Toronto,ON,M5H 2N2,Canada\n';
    const { rows } = readOrderFile({ name: 'o.csv', data: utf8(text) }, ctx());
    expect(rows[0]!.ToCountry).toBe('Canada');
    expect(validateBulkRow(rows[0]!).join(' ')).toMatch(/country/i);
  });

  it('names what is missing', () => {
    const text = 'Order ID,Full Name,Number of Items,Street 1,Ship City,Ship State\n9,Ann Roe,1,1 Main St,Reno,NV\n';
    expect(() => readOrderFile({ name: 'o.csv', data: utf8(text) }, ctx())).toThrow(
      new OrderFileError('Missing column: Ship Zipcode'),
    );
  });
});

describe('repairing mojibake', () => {
  it('undoes UTF-8 read as Windows-1252 and leaves genuine text alone', () => {
    expect(repairMojibake('JosÃ© MuÃ±oz')).toBe('José Muñoz');
    expect(repairMojibake('Itâ€™s')).toBe('It’s');
    expect(repairMojibake('Zoë Brandt')).toBe('Zoë Brandt');
    expect(repairMojibake('Ã and ©')).toBe('Ã and ©');
  });
});
