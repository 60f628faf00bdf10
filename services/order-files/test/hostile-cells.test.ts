import { describe, expect, it } from 'vitest';
import { bulkRowProblems, parseNumberCell, readOrderFile, toBulkOrderItem, validateBulkRow } from '../src/index';
import { ctx, utf8 } from './helpers';
import { validRow } from './rows';

// What the bulk table flags before anything is sent: cells the server would refuse (text it
// cannot store, numbers in notations nobody means as a size), each on its own cell.

const readCsv = (text: string) => readOrderFile({ name: 'orders.csv', data: utf8(text) }, ctx());

describe('text a cell cannot hold', () => {
  it.each([
    ['ToRecipientName', 'Harold\u0000Finch', 'Recipient name contains a character that is not allowed'],
    ['ToStreet1', '2187 \ud800Larkspur', 'Recipient street contains a character that is not allowed'],
    ['ToStreet2', 'Apt \udc00', 'Recipient street 2 contains a character that is not allowed'],
    ['FromCompany', 'Acme\u001b', 'Sender company contains a character that is not allowed'],
    ['orderId', '112-\u0000', 'Order ID contains a character that is not allowed'],
    ['skuNumber', 'MUG\u007f', 'SKU contains a character that is not allowed'],
    ['PackageDescription', 'Mug\u0085', 'Description contains a character that is not allowed'],
    ['PackageReference2', '\ud83d', 'Reference 2 contains a character that is not allowed'],
  ] as const)('%s with %j is flagged on that cell', (field, value, message) => {
    expect(bulkRowProblems(validRow({ [field]: value }))).toEqual([{ field, message }]);
    expect(validateBulkRow(validRow({ [field]: value }))).toEqual([message]);
  });

  it('a cell with such text gets only that problem, in column order with the others', () => {
    expect(validateBulkRow(validRow({ FromZipPostal: '', ToRecipientName: '\u0000', ToZipPostal: '1\ud800' }))).toEqual(
      [
        'Sender zip is required',
        'Recipient name contains a character that is not allowed',
        'Recipient zip contains a character that is not allowed',
      ],
    );
  });

  it('a cell wrapped onto several lines in a spreadsheet is sent as one line', () => {
    const row = validRow({ ToStreet2: 'Building B\r\n  Apt 4', PackageDescription: 'Mug\twhite' });
    expect(validateBulkRow(row)).toEqual([]);
    const item = toBulkOrderItem(row, 'USPS Priority Mail');
    expect(item.receiver.receiver_address2).toBe('Building B Apt 4');
    expect(item.package.package_description).toBe('Mug white');
  });

  it('a control character in a file cell is read, and the row is counted as needing a fix', () => {
    // A file with NULs near its start is refused as not text (decodeText); a stray control character is
    // kept so the user sees the row, and is flagged so it is fixed before the server would refuse it.
    const result = readCsv(
      'To Name,To Street 1,To City,To State,To Zip,Length,Width,Height,Weight\nA\u001bda,1 Main St,Reno,NV,89501,1,1,1,1\n',
    );
    expect(result.rows[0]!.ToRecipientName).toBe('A\u001bda');
    expect(result.warnings).toEqual(['1 row(s) have validation errors. Please check the table and fix them.']);
  });
});

describe('numbers in a cell', () => {
  it.each(['0x10', '0o10', '0b10', '1e3', '1e-308', 'Infinity', 'NaN', '+5', '5.', '1,5'])(
    '%j is not a number',
    (text) => {
      expect(parseNumberCell(text)).toBeNull();
    },
  );

  it.each([
    ['2', 2],
    ['2.5', 2.5],
    [' 12 ', 12],
    ['.5', 0.5],
    [16, 16],
  ])('%j is %d', (text, value) => {
    expect(parseNumberCell(text)).toBe(value);
  });

  it('a hex or exponent size in a file is read as blank and flagged, never as 16 or 1000', () => {
    const result = readCsv(
      'To Name,To Street 1,To City,To State,To Zip,Length,Width,Height,Weight\nAda,1 Main St,Reno,NV,89501,1e3,8,4,0x10\n',
    );
    expect(result.rows[0]).toMatchObject({ PackageLength: null, PackageWeight: null });
    expect(result.warnings).toEqual(['1 row(s) have validation errors. Please check the table and fix them.']);
  });

  it('too many decimals, a tiny number or a side over 108 inches is flagged as the server would', () => {
    expect(bulkRowProblems(validRow({ PackageWeight: 12.345, PackageLength: 1e-308, PackageHeight: 108.5 }))).toEqual([
      { field: 'PackageLength', message: 'Length can have at most 2 decimal places' },
      { field: 'PackageHeight', message: 'Height must be at most 108 inches' },
      { field: 'PackageWeight', message: 'Weight can have at most 2 decimal places' },
    ]);
    expect(validateBulkRow(validRow({ PackageWeight: 0.06, PackageLength: 108 }))).toEqual([]);
  });

  it('a quantity of 0x4 in a file refuses the file, naming the row', () => {
    expect(() =>
      readCsv(
        'Quantity,To Name,To Street 1,To City,To State,To Zip,Length,Width,Height,Weight\n0x4,Ada,1 Main St,Reno,NV,89501,1,1,1,1\n',
      ),
    ).toThrow('Row 2: Quantity must be a whole number of at least 1');
    expect(
      readCsv(
        'Quantity,To Name,To Street 1,To City,To State,To Zip,Length,Width,Height,Weight\n4.0,Ada,1 Main St,Reno,NV,89501,1,1,1,1\n',
      ).rows[0]!.quantity,
    ).toBe(4);
  });
});
