import type { Sku } from '@flatship/proto';
import { describe, expect, it } from 'vitest';
import { marketplaceOf, OrderFileError, readOrderFile, type ShippedPackage } from '../src/index';
import { EBAY_TRACKING_COLUMNS } from '../src/marketplaces/ebay';
import { ctx, mugPreset, readFixture, utf8 } from './helpers';

/** Both SKUs of the fixtures have presets (sizes and weights), so their rows are complete; the mug packs two to a box. */
const coasterPreset: Sku = { ...mugPreset, _id: 'sku-2', sku: 'coaster-4pk', maxQty: 10, weight: 0.5, height: 1 };
const presets = { skus: [mugPreset, coasterPreset] };
const readEbay = (name: string, over = {}) =>
  readOrderFile({ name, data: readFixture(`ebay/${name}`) }, ctx({ ...presets, ...over }));
const readText = (text: string, over = {}) => readOrderFile({ name: 'eBay-orders.csv', data: utf8(text) }, ctx(over));

function fileError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OrderFileError);
    return (error as Error).message;
  }
  throw new Error('expected an OrderFileError');
}

/** The rows in the file's order of orders and items (the table sorts them by SKU). */
const inFileOrder = <R extends { orderId: string; orderItemId: string }>(rows: R[]): R[] =>
  [...rows].sort((a, b) => `${a.orderId} ${a.orderItemId}`.localeCompare(`${b.orderId} ${b.orderItemId}`));

const recipient = (r: { ToRecipientName: string; ToStreet1: string; ToCity: string; ToStateProvince: string }) =>
  `${r.ToRecipientName}, ${r.ToStreet1}, ${r.ToCity} ${r.ToStateProvince}`;

describe('eBay orders report (82 columns)', () => {
  const result = readEbay('ebay-orders-82.csv');

  it('is recognised by its columns, under a line of bare commas, and stops at the footer', () => {
    expect(result.source).toBe('ebay');
    // Four orders, one of them already shipped; the multi-item order gives one row per item (its 3 mugs two
    // packages at the mug's max quantity of 2), the footer none.
    expect(result.rows).toHaveLength(5);
    expect(result.warnings).toEqual(['Order(s) 12-10234-40004 already have a Shipped On Date and were left out.']);
  });

  it('ships each item of a multi-item order to the summary row’s address with the item’s own quantity', () => {
    const unsplit = readEbay('ebay-orders-82.csv', { skus: [] });
    expect(
      inFileOrder(unsplit.rows).map((r) => [
        r.orderId,
        r.orderItemId,
        r.skuNumber,
        r.quantity,
        recipient(r),
        r.ToZipPostal,
      ]),
    ).toEqual([
      [
        '12-10231-40001',
        '335512340001-2894561230011',
        'mug-11oz-wht',
        1,
        'Ada Lovelace, 12 Elm St, Springfield IL',
        '62704',
      ],
      ['12-10232-40002', '335512340001-2894561230022', 'mug-11oz-wht', 3, 'Bo Diddley, 5 Pine Rd, Boston MA', '02134'],
      ['12-10232-40002', '335598760002-2894561230023', 'coaster-4pk', 1, 'Bo Diddley, 5 Pine Rd, Boston MA', '02134'],
      [
        '12-10233-40003',
        '335598760002-2894561230031',
        'coaster-4pk',
        2,
        'Grace Hopper, 9 Oak Ave, New York NY',
        '10001',
      ],
    ]);
    // The summary's Quantity (4) is the items' total, not another package.
    expect(unsplit.rows.filter((r) => r.orderId === '12-10232-40002').reduce((n, r) => n + (r.quantity ?? 0), 0)).toBe(
      4,
    );
  });

  it('keeps the title, phone and second address line, reads country names and codes, and leaves $ amounts alone', () => {
    const [ada, bo, , grace] = inFileOrder(readEbay('ebay-orders-82.csv', { skus: [] }).rows);
    expect(ada?.PackageDescription).toBe('Ceramic Mug, 11 oz "Classic" White');
    expect(ada?.ToStreet2).toBe('Apt 4');
    expect(ada?.ToPhone).toBe('217 555-0101');
    // 'United States', 'US' and 'USA' in the file.
    expect(result.rows.map((r) => r.ToCountry)).toEqual(['US', 'US', 'US', 'US', 'US']);
    expect(bo?.PackageReference1).toBe('12-10232-40002');
    expect(grace?.ToStateProvince).toBe('NY');
  });

  it("splits an item by its SKU's max quantity and sizes it by the preset, keeping its order item id", () => {
    expect(
      inFileOrder(result.rows.filter((r) => r.orderId === '12-10232-40002')).map((r) => [
        r.orderItemId,
        r.quantity,
        r.PackageWeight,
      ]),
    ).toEqual([
      ['335512340001-2894561230022', 2, 1.5],
      ['335512340001-2894561230022', 1, 1.5],
      ['335598760002-2894561230023', 1, 0.5],
    ]);
  });
});

describe('eBay report variants', () => {
  it('reads the 80-column report after a sep=, line, with item rows that leave the order number blank', () => {
    const result = readEbay('ebay-orders-80-sep.csv');
    expect(result.source).toBe('ebay');
    expect(result.warnings).toEqual([]);
    expect(
      inFileOrder(result.rows).map((r) => [r.orderId, r.orderItemId, r.quantity, recipient(r), r.ToZipPostal]),
    ).toEqual([
      ['03-11111-22222', '335512340001-3000000000011', 1, 'Alan Turing, 1 Bletchley Way, Princeton NJ', '08540'],
      ['03-11111-22222', '335598760002-3000000000012', 1, 'Alan Turing, 1 Bletchley Way, Princeton NJ', '08540'],
      ['03-11111-22223', '335512340001-3000000000021', 1, 'Emmy Noether, 300 Main St, Bryn Mawr PA', '19010'],
    ]);
  });

  it('reads the UK/AU naming (Post To Name, County, Postcode)', () => {
    const result = readEbay('ebay-orders-post-to.csv');
    expect(result.source).toBe('ebay');
    expect(result.rows.map((r) => [recipient(r), r.ToZipPostal, r.ToCountry])).toEqual([
      ['Rosalind Franklin, 40 Oxford St, Cambridge MA', '02138', 'US'],
    ]);
  });

  it('reads the report saved with semicolons when its headers are in English', () => {
    const result = readEbay('ebay-orders-semicolon.csv');
    expect(result.source).toBe('ebay');
    expect(result.rows.map((r) => [r.orderId, r.quantity])).toEqual([['12-10233-40003', 2]]);
  });

  it('names a missing column of a report that is otherwise eBay’s', () => {
    const text = [
      ',,,,,',
      'Sales Record Number,Order Number,Ship To Name,Ship To Address 1,Ship To City,Ship To State,Ship To Zip,Quantity',
      '1,12-1,Ada,1 Elm St,Reno,NV,89501,1',
    ].join('\n');
    expect(fileError(() => readText(text))).toBe('Missing column: Item Number');
  });

  it('refuses a quantity that is not a whole number, naming the row', () => {
    const text = [
      'Order Number,Item Number,Ship To Name,Ship To Address 1,Ship To City,Ship To State,Ship To Zip,Quantity',
      '12-1,3355,Ada,1 Elm St,Reno,NV,89501,1.5',
    ].join('\n');
    expect(fileError(() => readText(text))).toBe('Row 2: Quantity must be a whole number of at least 1');
  });

  it('ships a summary row with no item rows after it as the order itself', () => {
    const text = [
      'Order Number,Item Number,Ship To Name,Ship To Address 1,Ship To City,Ship To State,Ship To Zip,Quantity',
      '12-1,,Ada,1 Elm St,Reno,NV,89501,2',
      '12-2,3355,Bo,5 Pine Rd,Boston,MA,02134,1',
    ].join('\n');
    expect(readText(text).rows.map((r) => [r.orderId, r.orderItemId, r.quantity, r.ToRecipientName])).toEqual([
      ['12-1', '', 2, 'Ada'],
      ['12-2', '3355', 1, 'Bo'],
    ]);
  });

  it('sends rows with no address to the shared validation, which names what is missing', () => {
    const text = [
      'Order Number,Item Number,Ship To Name,Ship To Address 1,Ship To City,Ship To State,Ship To Zip,Quantity',
      '12-1,3355,Ada,,Reno,NV,89501,1',
    ].join('\n');
    expect(readText(text).warnings.join(' ')).toMatch(/1 row/);
  });
});

describe('eBay tracking upload', () => {
  const shipped = (over: Partial<ShippedPackage> = {}): ShippedPackage => ({
    orderId: '12-10232-40002',
    orderItemId: '335512340001-2894561230022',
    sku: 'mug-11oz-wht',
    reference1: '',
    description: 'Ceramic Mug, 11 oz "Classic" White',
    quantity: 2,
    shipDate: '2026-09-18',
    trackingNumber: '9400100000000000000001',
    courier: 'usps',
    serviceName: 'USPS Ground Advantage',
    carrier: { carrierCode: 'USPS', carrierName: 'USPS' },
    ...over,
  });
  const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

  it('is one Shipped row per item; an item in several packages gets its first package’s tracking number', () => {
    const file = marketplaceOf('ebay').confirmationFile?.([
      shipped(),
      shipped({ quantity: 1, trackingNumber: '9400100000000000000002' }),
      shipped({
        orderItemId: '335598760002-2894561230023',
        sku: 'coaster-4pk',
        description: 'Cork Coaster 4-pack',
        quantity: 1,
        trackingNumber: '9400100000000000000003',
      }),
      shipped({ orderId: '12-1', orderItemId: '3355', carrier: null, courier: 'gone', description: '=cmd|x' }),
    ]);
    expect(text(file)).toBe(
      [
        EBAY_TRACKING_COLUMNS.join(','),
        'Shipped,12-10232-40002,335512340001,"Ceramic Mug, 11 oz ""Classic"" White",mug-11oz-wht,2894561230022,USPS,9400100000000000000001',
        'Shipped,12-10232-40002,335598760002,Cork Coaster 4-pack,coaster-4pk,2894561230023,USPS,9400100000000000000003',
        "Shipped,12-1,3355,'=cmd|x,mug-11oz-wht,,gone,9400100000000000000001",
        '',
      ].join('\n'),
    );
  });
});
