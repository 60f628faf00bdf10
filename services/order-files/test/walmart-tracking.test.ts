import { read as readBook, utils } from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { marketplaceOf, type ShippedPackage } from '../src/marketplaces';

const shipped = (over: Partial<ShippedPackage> = {}): ShippedPackage => ({
  orderId: '108829140371',
  orderItemId: '1',
  sku: 'MUG-11OZ-WHT',
  description: '',
  reference1: '200011938472615',
  quantity: 4,
  shipDate: '2026-03-04',
  trackingNumber: '9400100000000000000001',
  courier: 'usps',
  serviceName: 'USPS Ground Advantage',
  carrier: { carrierCode: 'USPS', carrierName: 'USPS' },
  ...over,
});

/** The workbook's sheets as records keyed by header, as a seller's spreadsheet shows them. */
const sheetRecords = (bytes: Uint8Array) => {
  const book = readBook(bytes, { type: 'array' });
  expect(book.SheetNames).toEqual(['Po Details']);
  const sheet = book.Sheets['Po Details']!;
  const [header] = utils.sheet_to_json<string[]>(sheet, { header: 1 });
  return { header, records: utils.sheet_to_json<Record<string, unknown>>(sheet, { defval: '' }), sheet };
};

describe('Walmart tracking file', () => {
  it('is the order export with Update Status, Update Qty, Carrier, Tracking Number and Url filled, one row per package', () => {
    const file = marketplaceOf('walmart').confirmationFile!([
      shipped(),
      shipped({ orderItemId: '2', sku: 'TEE-BLK-L', quantity: 2, trackingNumber: '9400100000000000000002' }),
      shipped({ orderItemId: '2', sku: 'TEE-BLK-L', quantity: 1, trackingNumber: '9400100000000000000003' }),
    ]);
    const { header, records, sheet } = sheetRecords(file);
    expect(header).toHaveLength(37);
    expect(header?.slice(28, 33)).toEqual([
      'Update Status',
      'Update Qty',
      'Carrier',
      'Tracking Number',
      'Tracking Url',
    ]);
    const pick = (r: Record<string, unknown>) => [
      r['PO#'],
      r['Order#'],
      r['Line#'],
      r.SKU,
      r.Qty,
      r['Update Status'],
      r['Update Qty'],
      r.Carrier,
      r['Tracking Number'],
      r['Tracking Url'],
    ];
    const url = 'https://tools.usps.com/go/TrackConfirmAction?tLabels=';
    expect(records.map(pick)).toEqual([
      [
        '108829140371',
        '200011938472615',
        '1',
        'MUG-11OZ-WHT',
        4,
        'Ship',
        4,
        'USPS',
        '9400100000000000000001',
        `${url}9400100000000000000001`,
      ],
      [
        '108829140371',
        '200011938472615',
        '2',
        'TEE-BLK-L',
        2,
        'Ship',
        2,
        'USPS',
        '9400100000000000000002',
        `${url}9400100000000000000002`,
      ],
      [
        '108829140371',
        '200011938472615',
        '2',
        'TEE-BLK-L',
        1,
        'Ship',
        1,
        'USPS',
        '9400100000000000000003',
        `${url}9400100000000000000003`,
      ],
    ]);
    // Ids and tracking numbers are text, so a spreadsheet shows every digit.
    expect(sheet.A2?.t).toBe('s');
    expect(sheet.AF2?.t).toBe('s');
  });

  it('neutralises cells, and names a carrier without a Walmart code by its courier, with no USPS link', () => {
    const file = marketplaceOf('walmart').confirmationFile!([
      shipped({ orderId: '=HYPERLINK("http://x","y")', courier: 'test-parcel', carrier: null, trackingNumber: 'TP1' }),
    ]);
    const [record] = sheetRecords(file).records;
    expect([record!['PO#'], record!.Carrier, record!['Tracking Url']]).toEqual([
      '\'=HYPERLINK("http://x","y")',
      'TEST-PARCEL',
      '',
    ]);
  });
});
