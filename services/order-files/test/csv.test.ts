import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  type BulkRow,
  emptyBulkRow,
  OrderFileError,
  readOrderFile,
  rowsToCsv,
  TEMPLATE_HEADERS,
  templateCsv,
} from '../src/index';
import { amazonOrder, amazonText, ctx, mugPreset, utf8, WALMART_HEADERS } from './helpers';

const readCsv = (text: string, over = {}) => readOrderFile({ name: 'orders.CSV', data: utf8(text) }, ctx(over));

function fileError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OrderFileError);
    return (error as Error).message;
  }
  throw new Error('expected an OrderFileError');
}

const fullRow = (over: Partial<BulkRow> = {}): BulkRow => ({
  ...emptyBulkRow('r1'),
  orderId: '000123',
  orderItemId: '0042',
  skuNumber: 'TEE-1',
  quantity: 3,
  FromSenderName: 'Ada Shipper',
  FromCompany: 'Acme, Inc.',
  FromPhone: '+1 775-555-0100',
  FromStreet1: '100 Commerce Way',
  FromStreet2: 'Dock "B"',
  FromCity: 'Reno',
  FromStateProvince: 'NV',
  FromZipPostal: '89501',
  FromCountry: 'US',
  ToRecipientName: 'Zoë Brontë',
  ToCompany: '=HYPERLINK("x")',
  ToPhone: '617 555 0163',
  ToStreet1: '88 Peterborough St',
  ToStreet2: 'Line one\nLine two',
  ToCity: 'Boston',
  ToStateProvince: 'MA',
  ToZipPostal: '02215-4610',
  ToCountry: 'US',
  PackageLength: 10,
  PackageWidth: 8.5,
  PackageHeight: 4,
  PackageWeight: 0.75,
  PackageDescription: 'Tee, black',
  PackageReference1: '-ref-',
  PackageReference2: '@home',
  ...over,
});

describe('bulk CSV template', () => {
  it('names every column of a bulk row a file supplies', () => {
    expect(TEMPLATE_HEADERS).toEqual([
      'Order ID',
      'Order Item ID',
      'SKU',
      'Quantity',
      'From Name',
      'From Company',
      'From Phone',
      'From Street 1',
      'From Street 2',
      'From City',
      'From State',
      'From Zip',
      'From Country',
      'To Name',
      'To Company',
      'To Phone',
      'To Street 1',
      'To Street 2',
      'To City',
      'To State',
      'To Zip',
      'To Country',
      'Length',
      'Width',
      'Height',
      'Weight',
      'Description',
      'Reference 1',
      'Reference 2',
    ]);
  });

  it('is the header row alone, with a BOM for Excel', () => {
    expect(templateCsv()).toBe(`\uFEFF${TEMPLATE_HEADERS.join(',')}\r\n`);
  });

  it('a template with only its header is refused as having no orders', () => {
    expect(fileError(() => readCsv(templateCsv()))).toBe('This file has no orders');
  });

  it('round-trips rows through rowsToCsv and readOrderFile, including quotes, commas, line breaks and formula-like text', () => {
    const rows = [fullRow(), fullRow({ _id: 'r2', orderId: '', skuNumber: '', quantity: 1, PackageWeight: 2 })];
    const csv = rowsToCsv(rows);
    expect(csv.startsWith(`\uFEFF${TEMPLATE_HEADERS.join(',')}\r\n`)).toBe(true);
    // Excel must not run buyer text as a formula.
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    const read = readCsv(csv);
    expect(read.source).toBe('csv');
    expect(read.warnings).toEqual([]);
    expect(read.rows).toEqual(rows);
  });

  it('writes every formula-like cell as text, keeps plain negative numbers, and reads back text that already started with a quote', () => {
    const row = fullRow({
      ToRecipientName: '-2+3',
      ToCompany: "'=already text",
      ToStreet2: '\tUnit 4',
      PackageDescription: '-5',
      PackageReference1: "+cmd|' /C calc'!A0",
      PackageReference2: '@SUM(1+1)',
    });
    const csv = rowsToCsv([row], { headers: ['Note'], values: () => ['=1+1'] });
    const [header, cells] = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    const cell = (name: string) => cells![header!.indexOf(name)];
    expect(cell('To Name')).toBe("'-2+3");
    expect(cell('To Company')).toBe("''=already text");
    expect(cell('To Street 2')).toBe("'\tUnit 4");
    expect(cell('Description')).toBe('-5');
    expect(cell('Reference 1')).toBe("'+cmd|' /C calc'!A0");
    expect(cell('Reference 2')).toBe("'@SUM(1+1)");
    expect(cell('Note')).toBe("'=1+1");
    // The reader trims cells, so the tab before "Unit 4" goes as it would from any file.
    expect(readCsv(csv).rows).toEqual([{ ...row, ToStreet2: 'Unit 4' }]);
  });

  it('adds extra columns after the template columns', () => {
    const csv = rowsToCsv([fullRow()], {
      headers: ['Status', 'Tracking Number'],
      values: (_row, i) => [`ok ${i}`, '9400'],
    });
    const parsed = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    expect(parsed[0]!.slice(-2)).toEqual(['Status', 'Tracking Number']);
    expect(parsed[1]!.slice(-2)).toEqual(['ok 0', '9400']);
  });
});

describe('reading CSV files', () => {
  const header = 'To Name,To Street 1,To City,To State,To Zip,Length,Width,Height,Weight';

  it('matches headers ignoring case, spaces and underscores, and accepts the row keys themselves', () => {
    const text =
      'to_name,TOSTREET1,to city,ToStateProvince,TO_ZIP,packagelength,W,h,Wt\nAda,1 Main St,Reno,nevada,89501,1,2,3,4\n';
    expect(readCsv(text).rows[0]).toMatchObject({
      ToRecipientName: 'Ada',
      ToStreet1: '1 Main St',
      ToStateProvince: 'NV',
      PackageLength: 1,
      PackageWidth: 2,
      PackageHeight: 3,
      PackageWeight: 4,
    });
  });

  it("fills the sender from the saved address when a row has none, and keeps a row's own sender", () => {
    const text = `From Name,From Street 1,From City,From State,From Zip,${header}\n,,,,,Ada,1 Main St,Reno,NV,89501,1,1,1,1\nBo,2 Side St,Austin,TX,78701,Cy,3 Rd,Reno,NV,89501,1,1,1,1\n`;
    const rows = readCsv(text).rows;
    expect(rows[0]).toMatchObject({ FromSenderName: 'Ada Shipper', FromStateProvince: 'NV', FromStreet2: 'Dock 3' });
    expect(rows[1]).toMatchObject({ FromSenderName: 'Bo', FromCity: 'Austin', FromStreet2: '' });
  });

  it('leaves a blank sender blank (and flagged) without a saved address', () => {
    const result = readCsv(`${header}\nAda,1 Main St,Reno,NV,89501,1,1,1,1\n`, { senderAddress: null });
    expect(result.rows[0]!.FromSenderName).toBe('');
    expect(result.warnings).toEqual(['1 row(s) have validation errors. Please check the table and fix them.']);
  });

  it('restores ZIP leading zeros a spreadsheet dropped, and ZIP+4 hyphens', () => {
    const rows = readCsv(`${header}\nA,1 St,Boston,MA,2215,1,1,1,1\nB,1 St,Boston,MA,022154610,1,1,1,1\n`).rows;
    expect(rows.map((r) => r.ToZipPostal)).toEqual(['02215', '02215-4610']);
  });

  it('reads semicolon-separated files, blank lines and a BOM', () => {
    const text = `\uFEFF${header.replaceAll(',', ';')}\r\n\r\nAda;1 Main St;Reno;NV;89501;1,5;1;1;1\r\n;;;;;;;;\r\n`;
    const rows = readCsv(text).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ToRecipientName).toBe('Ada');
    // A decimal comma is not a number this reader guesses at.
    expect(rows[0]!.PackageLength).toBeNull();
  });

  it('reads invalid numbers as blank, to be fixed in the table', () => {
    const result = readCsv(`${header}\nAda,1 Main St,Reno,NV,89501,abc,-1,0,2\n`);
    expect(result.rows[0]).toMatchObject({ PackageLength: null, PackageWidth: -1, PackageHeight: 0, PackageWeight: 2 });
    expect(result.warnings).toEqual(['1 row(s) have validation errors. Please check the table and fix them.']);
  });

  it('defaults a blank quantity to 1 and refuses a bad one naming the row', () => {
    expect(readCsv(`Quantity,${header}\n,Ada,1 Main St,Reno,NV,89501,1,1,1,1\n`).rows[0]!.quantity).toBe(1);
    expect(
      fileError(() =>
        readCsv(`Quantity,${header}\n2,Ada,1 Main St,Reno,NV,89501,1,1,1,1\n0,Bo,1 St,Reno,NV,89501,1,1,1,1\n`),
      ),
    ).toBe('Row 3: Quantity must be a whole number of at least 1');
  });

  it('fills blank sizes from a SKU preset but keeps sizes the file gives', () => {
    const text = `SKU,${header}\nMUG-11OZ-WHT,Ada,1 St,Reno,NV,89501,,,,\nmug-11oz-wht,Bo,1 St,Reno,NV,89501,20,20,20,9\n`;
    const rows = readCsv(text, { skus: [mugPreset] }).rows;
    expect(rows[0]).toMatchObject({
      PackageLength: 8,
      PackageWidth: 6,
      PackageHeight: 5,
      PackageWeight: 1.5,
      PackageDescription: 'Boxed mug',
    });
    expect(rows[1]).toMatchObject({ PackageLength: 20, PackageWeight: 9, quantity: 1 });
    // Template rows are shipments as written: never split.
    expect(rows).toHaveLength(2);
  });

  it('refuses a file whose headers no marketplace knows, naming the supported ones', () => {
    expect(fileError(() => readCsv('name,address\nAda,1 Main St\n'))).toBe(
      "This file's columns are not those of any supported order file (Flatship CSV template, Amazon, Walmart, TikTok Shop, eBay, Shopify, Etsy). Download the Bulk Template CSV for the template's columns",
    );
  });

  it('names the missing recipient columns of a template missing them', () => {
    expect(fileError(() => readCsv('Order ID,SKU,Quantity\n1,A,1\n'))).toBe(
      'Missing columns: To Name, To Street 1, To City, To State, To Zip. Download the Bulk Template CSV for the expected headers',
    );
  });

  it('reads an Amazon report saved as CSV like the report', () => {
    const text = amazonText([amazonOrder({ 'product-name': 'Mug, "large"' })])
      .replaceAll('\t', ',')
      .replace('Mug, "large"', '"Mug, ""large"""');
    const result = readCsv(text);
    expect(result.source).toBe('amazon');
    expect(result.rows[0]).toMatchObject({
      orderItemId: '00012345678901',
      PackageDescription: 'Mug, "large"',
      FromSenderName: 'Ada Shipper',
    });
  });

  it('reads a Walmart export saved as CSV like the workbook', () => {
    const row = [
      '1088',
      '2000',
      '',
      'Ellen Brooks',
      '8025550106',
      '12 Hemlock Ln',
      '',
      'Montpelier',
      'VT',
      '05602',
      '1',
      'Acknowledged',
      'Candle',
      '5',
      'C-1',
    ];
    const result = readCsv(`${WALMART_HEADERS.join(',')}\n${row.join(',')}\n`);
    expect(result.source).toBe('walmart');
    expect(result.rows.map((r) => [r.orderId, r.ToZipPostal, r.quantity])).toEqual([
      ['1088', '05602', 4],
      ['1088', '05602', 1],
    ]);
  });
});
