import { read as readBook } from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { OrderFileError, readOrderFile, validateBulkRow } from '../src/index';
import { marketplaceOf, type ShippedPackage } from '../src/marketplaces';
import { ctx, mugPreset, readFixture, utf8, xlsxBytes } from './helpers';

/** Presets for every SKU of the fixtures, so their rows are whole shipments (a row without sizes is invalid). */
const SKUS = ['mug-11oz-wht', 'tee-blk-m', 'tee-blk-l', 'candle-lav-8oz'].map((sku, i) => ({
  ...mugPreset,
  _id: `sku-${i}`,
  sku,
  maxQty: 4,
  description: '',
}));

const readTikTok = (name: string, over = {}) =>
  readOrderFile({ name: name.replace(/^.*\//, ''), data: readFixture(`tiktok/${name}`) }, ctx({ skus: SKUS, ...over }));

/** Rows in file order (the table sorts split rows by SKU). */
const byLine = <T extends { orderId: string; orderItemId: string }>(rows: T[]) =>
  [...rows].sort((a, b) => (a.orderId + a.orderItemId).localeCompare(b.orderId + b.orderItemId));

const summary = (r: ReturnType<typeof readTikTok>['rows'][number]) => [
  r.orderId,
  r.orderItemId,
  r.skuNumber,
  r.quantity,
  r.ToRecipientName,
  r.ToStateProvince,
  r.ToZipPostal,
];

describe('TikTok Shop order export', () => {
  it('reads the CSV export (BOM, description row) one row per SKU line, shipped from the saved address', () => {
    const read = readTikTok('tiktok-orders.csv');
    expect(read.source).toBe('tiktok');
    expect(read.warnings).toEqual([]);
    expect(byLine(read.rows).map(summary)).toEqual([
      ['576461413038785752', '1729384756012345678', 'MUG-11OZ-WHT', 2, 'Harold Finch', 'CA', '94401'],
      ['576461413038790011', '1729384756012345690', 'TEE-BLK-M', 1, 'Priya Raman', 'TX', '78756-3318'],
      ['576461413038790011', '1729384756012345691', 'TEE-BLK-L', 1, 'Priya Raman', 'TX', '78756-3318'],
      ['576461413038795500', '1729384756012345701', 'CANDLE-LAV-8OZ', 1, 'Marcus Delgado', 'IL', '60610'],
    ]);
    const marcus = byLine(read.rows)[3]!;
    expect([marcus.ToStreet1, marcus.ToStreet2, marcus.ToPhone, marcus.ToCountry, marcus.FromCity]).toEqual([
      '1520 N Clybourn Ave',
      'Apt 4B',
      '+1 3125550119',
      'US',
      'Reno',
    ]);
    expect(marcus.PackageDescription).toBe('Soy Wax Candle, Lavender');
  });

  it('reads the xlsx export (sheet OrderSKUList) as the CSV', () => {
    const csv = readTikTok('tiktok-orders.csv');
    const xlsx = readTikTok('tiktok-orders.xlsx');
    expect(xlsx.source).toBe('tiktok');
    expect(xlsx.rows).toEqual(csv.rows);
  });

  it('finds the order sheet of a workbook whose first sheet is something else', () => {
    const read = readTikTok('tiktok-two-sheets.xlsx');
    expect(read.source).toBe('tiktok');
    expect(read.rows).toHaveLength(4);
  });

  it('trims trailing tabs from ids, spaces around header names, and maps full state names to codes', () => {
    const read = readTikTok('tiktok-tabs-and-state-names.csv');
    expect(read.source).toBe('tiktok');
    expect(read.warnings).toEqual([]);
    expect(byLine(read.rows).map(summary)).toEqual([
      ['576461413038801234', '1729384756012345678', 'MUG-11OZ-WHT', 1, 'Ada Lovelace', 'IL', '62704'],
      ['576461413038805678', '1729384756012345701', 'CANDLE-LAV-8OZ', 3, 'Bo Diddley', 'MA', '02134'],
      ['576461413038809999', '1729384756012345690', 'TEE-BLK-M', 1, 'Cy Old', 'DC', '20001'],
    ]);
    for (const row of read.rows) expect(validateBulkRow(row)).toEqual([]);
  });

  it('takes only lines awaiting shipment and counts the others in a warning', () => {
    const read = readTikTok('tiktok-substatuses.csv');
    expect(read.rows.map((r) => r.orderId)).toEqual(['576461413038785752']);
    expect(read.warnings).toEqual(['3 line(s) not awaiting shipment were skipped.']);
  });

  it('keeps masked rows for the user to fix, refused with a reason naming the masking', () => {
    const read = readTikTok('tiktok-masked.csv');
    expect(read.rows.map((r) => r.orderId)).toEqual(['576461413038785752', '576461413038811111']);
    expect(read.warnings).toEqual([
      '1 order(s) have the recipient or address masked by TikTok Shop: export them after they are ready to ship, or enter the address in the table.',
      '1 row(s) have validation errors. Please check the table and fix them.',
    ]);
    expect(validateBulkRow(read.rows[0]!)).toEqual([]);
    const masked = read.rows[1]!;
    const problems = validateBulkRow(masked);
    expect(problems).toEqual(
      expect.arrayContaining([
        'Recipient name is masked by the marketplace (J*** D***): export the order after it is ready to ship, or enter it',
        'Recipient phone is masked by the marketplace (+1 312****54): export the order after it is ready to ship, or enter it',
        'Recipient street is masked by the marketplace (15** N C******** Ave): export the order after it is ready to ship, or enter it',
      ]),
    );
    // Only the masking is named for those cells (not also "phone must contain only digits…").
    expect(problems.filter((p) => p.startsWith('Recipient phone'))).toHaveLength(1);
    // Typing the real address in the table clears the problems.
    const fixed = { ...masked, ToRecipientName: 'Jane Doe', ToPhone: '312 555 0154', ToStreet1: '1520 N Clybourn Ave' };
    expect(validateBulkRow(fixed)).toEqual([]);
  });

  it('splits by the SKU preset maxQty and sizes packages by it, as for Amazon', () => {
    const read = readTikTok('tiktok-orders.csv', { skus: [{ ...mugPreset, maxQty: 1 }] });
    const mugs = read.rows.filter((r) => r.skuNumber === 'MUG-11OZ-WHT');
    expect(mugs.map((r) => [r.orderId, r.quantity, r.PackageWeight, r.PackageLength])).toEqual([
      ['576461413038785752', 1, 1.5, 8],
      ['576461413038785752', 1, 1.5, 8],
    ]);
    const three = readTikTok('tiktok-tabs-and-state-names.csv', {
      skus: [{ ...mugPreset, sku: 'candle-lav-8oz', maxQty: 2 }],
    });
    expect(three.rows.filter((r) => r.skuNumber === 'CANDLE-LAV-8OZ').map((r) => r.quantity)).toEqual([2, 1]);
  });

  it('names a missing column and refuses a bad quantity with its row', () => {
    const header = ['Order ID', 'Order Substatus', 'Recipient', 'City', 'State', 'Quantity', 'Address Line 1'];
    const missing = () =>
      readOrderFile({ name: 'o.csv', data: utf8(`${header.join(',')}\n1,Awaiting shipment,A,B,CA,1,x\n`) }, ctx());
    expect(missing).toThrow(new OrderFileError('Missing column: Zipcode'));
    const bad = [[...header, 'Zipcode'].join(','), '576,Awaiting shipment,Ann Lee,Reno,NV,two,1 Main St,89501'].join(
      '\n',
    );
    expect(() => readOrderFile({ name: 'o.csv', data: utf8(bad) }, ctx())).toThrow(
      new OrderFileError('Row 2: Quantity must be a whole number of at least 1'),
    );
  });

  it('reads an export with no description row', () => {
    const rows = [
      ['Order ID', 'Order Substatus', 'SKU ID', 'Quantity', 'Recipient', 'State', 'City', 'Zipcode', 'Address Line 1'],
      ['576000', 'Awaiting shipment', '17', '1', 'Ann Lee', 'Nevada', 'Reno', '89501', '1 Main St'],
    ];
    const read = readOrderFile({ name: 'OrderSKUList.xlsx', data: xlsxBytes(rows, 'OrderSKUList') }, ctx());
    expect(read.rows.map(summary)).toEqual([['576000', '17', '', 1, 'Ann Lee', 'NV', '89501']]);
  });
});

describe('TikTok Shop tracking upload', () => {
  const shipped = (over: Partial<ShippedPackage> = {}): ShippedPackage => ({
    orderId: '576461413038785752',
    orderItemId: '1729384756012345678',
    sku: 'MUG-11OZ-WHT',
    description: '',
    reference1: '576461413038785752',
    quantity: 2,
    shipDate: '2026-03-04',
    trackingNumber: '9400100000000000000001',
    courier: 'usps',
    serviceName: 'USPS Ground Advantage',
    carrier: { carrierCode: 'USPS', carrierName: 'USPS' },
    ...over,
  });
  const sheets = (bytes: Uint8Array) => {
    const book = readBook(bytes, { type: 'array' });
    return Object.fromEntries(
      book.SheetNames.map((name) => {
        const ws = book.Sheets[name]!;
        const ref = ws['!ref'] ?? 'A1';
        const [, end] = ref.split(':');
        const cols = end ? end.replace(/\d+/g, '') : 'A';
        const rows: string[][] = [];
        const last = Number((end ?? 'A1').replace(/\D+/g, ''));
        for (let r = 1; r <= last; r++) {
          const row: string[] = [];
          for (let c = 0; c <= cols.charCodeAt(0) - 65; c++)
            row.push(String(ws[`${String.fromCharCode(65 + c)}${r}`]?.v ?? ''));
          rows.push(row);
        }
        return [name, rows];
      }),
    );
  };

  it('is the template: a note, the header on row 2, one row per order with USPS as TikTok lists it', () => {
    const file = marketplaceOf('tiktok').confirmationFile!([
      shipped(),
      shipped({ orderId: '=HYPERLINK("x")', trackingNumber: '9400100000000000000002', carrier: null }),
    ]);
    const book = sheets(file);
    expect(Object.keys(book)).toEqual(['Shipping info']);
    const [note, header, ...rows] = book['Shipping info']!;
    expect(note![0]).toMatch(/Split orders/);
    expect(header).toEqual(['Order ID', 'Tracking ID', 'Shipping Provider Name', 'Auto Combine Group ID']);
    expect(rows).toEqual([
      ['576461413038785752', '9400100000000000000001', 'USPS', ''],
      ['\'=HYPERLINK("x")', '9400100000000000000002', 'USPS', ''],
    ]);
  });

  it('leaves an order shipped in several packages off the upload and lists its packages on a second sheet', () => {
    const file = marketplaceOf('tiktok').confirmationFile!([
      shipped({ orderId: 'A', trackingNumber: 'T1' }),
      shipped({ orderId: 'B', orderItemId: 'S1', trackingNumber: 'T2', quantity: 2 }),
      shipped({ orderId: 'B', orderItemId: 'S1', trackingNumber: 'T3', quantity: 1 }),
    ]);
    const book = sheets(file);
    expect(book['Shipping info']!.slice(2)).toEqual([['A', 'T1', 'USPS', '']]);
    const [note, header, ...rows] = book['Split orders']!;
    expect(note![0]).toMatch(/several packages/);
    expect(header).toEqual(['Order ID', 'SKU ID', 'Seller SKU', 'Quantity', 'Tracking ID', 'Shipping Provider Name']);
    expect(rows).toEqual([
      ['B', 'S1', 'MUG-11OZ-WHT', '2', 'T2', 'USPS'],
      ['B', 'S1', 'MUG-11OZ-WHT', '1', 'T3', 'USPS'],
    ]);
  });
});
