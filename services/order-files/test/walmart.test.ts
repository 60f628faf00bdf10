import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OrderFileError, readOrderFile } from '../src/index';
import { ctx, mugPreset, readFixture, sharedFixturesDir, utf8, WALMART_HEADERS, xlsxBytes } from './helpers';

const readWalmart = (data: Uint8Array, over = {}) => readOrderFile({ name: 'PO_Export.XLSX', data }, ctx(over));

function fileError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OrderFileError);
    return (error as Error).message;
  }
  throw new Error('expected an OrderFileError');
}

const line = (over: Partial<Record<string, string | number | { n: number; z: string }>> = {}) => {
  const values: Record<string, string | number | { n: number; z: string }> = {
    'PO#': '108829140371',
    'Order#': '200011938472615',
    'Order Date': '2025-09-22',
    'Customer Name': 'Ellen Brooks',
    'Customer Phone Number': '8025550106',
    'Ship to Address 1': '12 Hemlock Ln',
    'Ship to Address 2': '',
    City: 'Montpelier',
    State: 'VT',
    Zip: '05602',
    'Line#': '1',
    Status: 'Acknowledged',
    'Item Description': 'Candle',
    Qty: '1',
    SKU: 'CANDLE-CED-8OZ',
    ...over,
  };
  return WALMART_HEADERS.map((h) => values[h] ?? '');
};

describe('Walmart order sample', () => {
  const result = readOrderFile(
    { name: 'walmart-orders-sample.xlsx', data: readFixture('walmart-orders-sample.xlsx') },
    ctx({ skus: [mugPreset] }),
  );

  it('is the same file as the shared fixture', () => {
    const shared = new URL('walmart-orders-sample.xlsx', sharedFixturesDir);
    if (!existsSync(shared)) return;
    expect(readFixture('walmart-orders-sample.xlsx')).toEqual(new Uint8Array(readFileSync(shared)));
  });

  it('reads every order line, splitting by the preset maxQty, in SKU order', () => {
    expect(result.source).toBe('walmart');
    expect(result.rows.map((r) => [r.skuNumber, r.quantity])).toEqual([
      ['CANDLE-CED-8OZ', 1],
      ['CANDLE-LAV-8OZ', 1],
      ['MUG-11OZ-BLU', 1],
      ['MUG-11OZ-WHT', 2],
      ['MUG-11OZ-WHT', 2],
      ['MUG-11OZ-WHT', 2],
      ['MUG-11OZ-WHT', 2],
      ['MUG-11OZ-WHT', 1],
      ['TEE-BLK-L', 2],
      ['TEE-BLK-M', 1],
    ]);
  });

  it('keeps ZIP codes with leading zeros and ZIP+4 as text, ids by PO and line', () => {
    expect(result.rows[0]).toMatchObject({
      orderId: '108829140426',
      orderItemId: '1',
      PackageReference1: '200011938485504',
      ToRecipientName: 'Ellen Brooks',
      ToPhone: '8025550106',
      ToStreet1: '12 Hemlock Ln',
      ToCity: 'Montpelier',
      ToStateProvince: 'VT',
      ToZipPostal: '05602',
      ToCountry: 'US',
      PackageDescription: 'Soy Wax Candle, Cedarwood, 8 oz Jar',
      FromSenderName: 'Ada Shipper',
      FromStateProvince: 'NV',
    });
    expect(result.rows.find((r) => r.skuNumber === 'MUG-11OZ-BLU')).toMatchObject({
      ToRecipientName: "Zoë O'Sullivan",
      ToZipPostal: '02215-4610',
    });
    expect(result.rows.find((r) => r.skuNumber === 'TEE-BLK-L')!.orderItemId).toBe('2');
    expect(result.rows.find((r) => r.skuNumber === 'CANDLE-LAV-8OZ')!.ToStreet2).toBe('Apt 4B');
  });

  it('applies the preset sizes and warns about the rows still missing them', () => {
    expect(result.rows.filter((r) => r.PackageWeight === 1.5)).toHaveLength(5);
    expect(result.warnings).toEqual(['5 row(s) have validation errors. Please check the table and fix them.']);
  });

  it('is refused when the user has no saved address', () => {
    expect(fileError(() => readWalmart(readFixture('walmart-orders-sample.xlsx'), { senderAddress: null }))).toBe(
      'Please add an address first',
    );
  });
});

describe('Walmart sheets', () => {
  it('finds the header row below a title and reads numeric cells as text without losing zeros', () => {
    const data = xlsxBytes([
      ['Walmart Seller Center - Orders export'],
      [],
      WALMART_HEADERS,
      line({
        'PO#': 108829140371,
        'Order#': 200011938472615,
        Zip: { n: 2215, z: '00000' },
        'Customer Phone Number': 6175550163,
        Qty: 3,
        'Line#': 1,
      }),
      line({ Zip: 2215, 'Customer Name': 'Numeric Zip General Format' }),
    ]);
    const result = readWalmart(data);
    expect(result.rows[0]).toMatchObject({
      orderId: '108829140371',
      PackageReference1: '200011938472615',
      ToZipPostal: '02215',
      ToPhone: '6175550163',
      quantity: 3,
      orderItemId: '1',
    });
    expect(result.rows[1]!.ToZipPostal).toBe('02215');
  });

  it('finds columns by name in any order, ignoring extra columns', () => {
    const headers = [...WALMART_HEADERS].reverse();
    const values = [...line({ 'Customer Name': 'Reordered Reader' })].reverse();
    const result = readWalmart(
      xlsxBytes([
        [...headers, 'Carrier'],
        [...values, 'USPS'],
      ]),
    );
    expect(result.rows[0]).toMatchObject({ ToRecipientName: 'Reordered Reader', ToCity: 'Montpelier' });
  });

  it('skips lines already shipped or cancelled, and says so', () => {
    const result = readWalmart(
      xlsxBytes([
        WALMART_HEADERS,
        line({ 'Customer Name': 'Ship me' }),
        line({ Status: 'Shipped' }),
        line({ Status: 'Cancelled' }),
      ]),
    );
    expect(result.rows.map((r) => r.ToRecipientName)).toEqual(['Ship me']);
    expect(result.warnings).toContain('2 line(s) already shipped or cancelled were skipped.');
  });

  it('names missing columns', () => {
    const headers = WALMART_HEADERS.filter((h) => h !== 'Zip' && h !== 'Customer Name');
    expect(fileError(() => readWalmart(xlsxBytes([headers, headers.map(() => 'x')])))).toBe(
      'Missing columns: Customer Name, Zip',
    );
  });

  it('refuses a bad Qty naming the spreadsheet row', () => {
    const data = xlsxBytes([['Orders'], WALMART_HEADERS, line(), line({ Qty: '0' })]);
    expect(fileError(() => readWalmart(data))).toBe('Row 4: Qty must be a whole number of at least 1');
  });

  it('refuses a truncated workbook', () => {
    const whole = readFixture('walmart-orders-sample.xlsx');
    expect(fileError(() => readWalmart(whole.slice(0, Math.floor(whole.length / 2))))).toBe(
      'This .xlsx file could not be read: it may be damaged or only partly downloaded',
    );
  });

  it('refuses a text file named .xlsx', () => {
    expect(fileError(() => readWalmart(utf8('PO#,Customer Name\n1,Ada\n')))).toBe(
      'This file is not an Excel .xlsx workbook. Please upload the Walmart or TikTok Shop order export as .xlsx',
    );
  });

  it('refuses a workbook with only a header', () => {
    expect(fileError(() => readWalmart(xlsxBytes([WALMART_HEADERS])))).toBe('This file has no orders');
  });

  it('refuses an empty workbook', () => {
    expect(fileError(() => readWalmart(xlsxBytes([[]])))).toBe('This file is empty');
  });
});
