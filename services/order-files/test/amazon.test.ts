import { existsSync, readFileSync } from 'node:fs';
import type { Sku } from '@flatship/proto';
import { describe, expect, it } from 'vitest';
import { OrderFileError, readOrderFile, UNRECOGNISED_FILE_MESSAGE, validateBulkRow } from '../src/index';
import {
  AMAZON_HEADERS,
  amazonOrder,
  amazonText,
  ctx,
  mugPreset,
  readFixture,
  sharedFixturesDir,
  utf8,
} from './helpers';

const readAmazon = (data: Uint8Array, over = {}) => readOrderFile({ name: 'orders.txt', data }, ctx(over));

const presetFor = (sku: string): Sku => ({
  _id: sku,
  sku,
  maxQty: 4,
  weight: 1,
  length: 10,
  width: 8,
  height: 4,
  description: '',
});
const ALL_SAMPLE_SKUS = [
  'MUG-11OZ-WHT',
  'TEE-BLK-M',
  'TEE-BLK-L',
  'CANDLE-LAV-8OZ',
  'MUG-11OZ-BLU',
  'CANDLE-CED-8OZ',
  'TEE-WHT-XL',
  'MUG-15OZ-BLK',
].map(presetFor);

function expectFileError(run: () => unknown, message: string | RegExp) {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(OrderFileError);
  if (typeof message === 'string') expect((caught as Error).message).toBe(message);
  else expect((caught as Error).message).toMatch(message);
}

describe('Amazon unshipped-orders sample', () => {
  const result = readOrderFile(
    { name: 'amazon-unshipped-sample.txt', data: readFixture('amazon-unshipped-sample.txt') },
    ctx(),
  );

  it('is the same file as the shared fixture', () => {
    const shared = new URL('amazon-unshipped-sample.txt', sharedFixturesDir);
    if (!existsSync(shared)) return;
    expect(readFixture('amazon-unshipped-sample.txt')).toEqual(new Uint8Array(readFileSync(shared)));
  });

  it('reads as an Amazon order with one row per package of at most 4 items', () => {
    expect(result.source).toBe('amazon');
    // 8 order lines; the 9-mug line becomes 4 + 4 + 1.
    expect(result.rows).toHaveLength(10);
  });

  it('puts rows in SKU order, larger packages first within a SKU', () => {
    expect(result.rows.map((r) => [r.skuNumber, r.quantity])).toEqual([
      ['CANDLE-CED-8OZ', 2],
      ['CANDLE-LAV-8OZ', 1],
      ['MUG-11OZ-BLU', 1],
      ['MUG-11OZ-WHT', 4],
      ['MUG-11OZ-WHT', 4],
      ['MUG-11OZ-WHT', 1],
      ['MUG-15OZ-BLK', 1],
      ['TEE-BLK-L', 2],
      ['TEE-BLK-M', 1],
      ['TEE-WHT-XL', 4],
    ]);
    expect(new Set(result.rows.map((r) => r._id)).size).toBe(10);
  });

  it('keeps ids as text with their leading zeros, ZIP+4, accents and second address lines', () => {
    const zoe = result.rows.find((r) => r.skuNumber === 'MUG-11OZ-BLU')!;
    expect(zoe).toMatchObject({
      orderId: '111-9284630-5017723',
      orderItemId: '07712938456012',
      ToRecipientName: "Zoë O'Sullivan",
      ToStreet1: '88 Peterborough St',
      ToCity: 'Boston',
      ToStateProvince: 'MA',
      ToZipPostal: '02215-4610',
      ToCountry: 'US',
      ToPhone: '+1 617-555-0163',
      PackageDescription: 'Ceramic Coffee Mug 11 oz, Blue',
      PackageReference1: '111-9284630-5017723',
    });
    const business = result.rows.find((r) => r.skuNumber === 'TEE-WHT-XL')!;
    expect(business.ToRecipientName).toBe('Receiving Dept - Dana Kim');
    expect(business.ToStreet2).toBe('Suite 1200');
    expect(result.rows.find((r) => r.skuNumber === 'CANDLE-LAV-8OZ')!.ToStreet2).toBe('Apt 4B');
  });

  it('uses quantity-to-ship, not quantity-purchased, when part of a line has shipped', () => {
    // Grace Whitfield bought 3, 1 has shipped.
    expect(result.rows.find((r) => r.skuNumber === 'CANDLE-CED-8OZ')!.quantity).toBe(2);
  });

  it('ships every row from the saved address, its state as a two-letter code', () => {
    for (const row of result.rows) {
      expect(row).toMatchObject({
        FromSenderName: 'Ada Shipper',
        FromCompany: 'Acme Goods',
        FromPhone: '775 555-0100',
        FromStreet1: '100 Commerce Way',
        FromStreet2: 'Dock 3',
        FromCity: 'Reno',
        FromStateProvince: 'NV',
        FromZipPostal: '89501',
        FromCountry: 'US',
      });
    }
  });

  it('warns that rows without package sizes need fixing', () => {
    expect(result.warnings).toEqual(['10 row(s) have validation errors. Please check the table and fix them.']);
  });

  it('has no warning when every SKU has a preset', () => {
    const withPresets = readAmazon(readFixture('amazon-unshipped-sample.txt'), { skus: ALL_SAMPLE_SKUS });
    expect(withPresets.warnings).toEqual([]);
    expect(withPresets.rows.every((r) => validateBulkRow(r).length === 0)).toBe(true);
  });

  it('splits by the preset maxQty and takes its sizes and description', () => {
    const withMug = readAmazon(readFixture('amazon-unshipped-sample.txt'), { skus: [mugPreset] });
    const mugs = withMug.rows.filter((r) => r.skuNumber === 'MUG-11OZ-WHT');
    expect(mugs.map((r) => r.quantity)).toEqual([2, 2, 2, 2, 1]);
    for (const mug of mugs) {
      expect(mug).toMatchObject({
        PackageWeight: 1.5,
        PackageLength: 8,
        PackageWidth: 6,
        PackageHeight: 5,
        PackageDescription: 'Boxed mug',
      });
    }
  });
});

describe('Amazon broken sample', () => {
  const data = readFixture('amazon-unshipped-broken.txt');

  it('is refused naming the line whose quantity is not a number', () => {
    expectFileError(() => readAmazon(data), 'Row 7: quantity-to-ship must be a whole number of at least 1');
  });

  it('with the quantity fixed, loads despite blank and whitespace lines and a trailing tab, warning about the rows missing a city or ZIP', () => {
    const fixed = utf8(new TextDecoder().decode(data).replace('\ttwo\t0\ttwo\t', '\t2\t0\t2\t'));
    const skus = ['MUG-15OZ-BLK', 'MUG-11OZ-WHT', 'TEE-BLK-S', 'CANDLE-LAV-8OZ'].map(presetFor);
    const result = readAmazon(fixed, { skus });
    expect(result.rows.map((r) => r.ToRecipientName)).toEqual([
      'Ruth Abernathy',
      'Lena Fischer',
      'Owen McAllister',
      'Samuel Okafor',
      'Tomás Reyes',
    ]);
    expect(result.warnings).toEqual(['2 row(s) have validation errors. Please check the table and fix them.']);
    const lena = result.rows.find((r) => r.ToRecipientName === 'Lena Fischer')!;
    expect(validateBulkRow(lena)).toEqual(['Recipient city is required']);
    const tomas = result.rows.find((r) => r.ToRecipientName === 'Tomás Reyes')!;
    expect(validateBulkRow(tomas)).toEqual(['Recipient zip is required']);
    const owen = result.rows.find((r) => r.ToRecipientName === 'Owen McAllister')!;
    expect(owen).toMatchObject({ ToCountry: 'US', ToZipPostal: '85004', quantity: 2 });
  });
});

describe('Amazon report encodings and layout', () => {
  const zoe = amazonOrder({ 'recipient-name': 'Zoë Brontë', 'product-name': 'Café mug' });

  it('reads UTF-8 with a byte-order mark, the first header still found', () => {
    const result = readAmazon(utf8(`\uFEFF${amazonText([zoe])}`));
    expect(result.rows[0]).toMatchObject({ orderId: '112-0000001-0000001', ToRecipientName: 'Zoë Brontë' });
  });

  it('reads Windows-1252 text (é, ë as single bytes)', () => {
    const text = amazonText([amazonOrder({ 'recipient-name': 'Renée Brontë' })]);
    const bytes = new Uint8Array([...text].map((ch) => ({ é: 0xe9, ë: 0xeb })[ch] ?? ch.charCodeAt(0)));
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    expect(readAmazon(bytes).rows[0]!.ToRecipientName).toBe('Renée Brontë');
  });

  it('reads UTF-16 as Excel saves "Unicode Text"', () => {
    const text = `\uFEFF${amazonText([zoe])}`;
    const bytes = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      bytes[i * 2] = text.charCodeAt(i) & 0xff;
      bytes[i * 2 + 1] = text.charCodeAt(i) >> 8;
    }
    expect(readAmazon(bytes).rows[0]!.ToRecipientName).toBe('Zoë Brontë');
  });

  it('reads LF and CRLF line endings alike', () => {
    const lf = readAmazon(utf8(amazonText([zoe, amazonOrder()], AMAZON_HEADERS, '\n')));
    const crlf = readAmazon(utf8(amazonText([zoe, amazonOrder()], AMAZON_HEADERS, '\r\n')));
    expect(lf.rows).toEqual(crlf.rows);
    expect(lf.rows).toHaveLength(2);
    expect(lf.rows[0]!.ToCountry).toBe('US');
  });

  it('ignores blank lines, whitespace-only lines and trailing tabs', () => {
    const text = `${AMAZON_HEADERS.join('\t')}\t\t\r\n\r\n${AMAZON_HEADERS.map((h) => zoe[h]).join('\t')}\t\t\r\n   \r\n\t\t\r\n`;
    const result = readAmazon(utf8(text));
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]!.ToCountry).toBe('US');
  });

  it('finds columns by name whatever their order, ignoring extra columns and header case', () => {
    const headers = [...AMAZON_HEADERS].reverse().concat(['delivery-instructions', 'is-prime']);
    const text = amazonText(
      [{ ...zoe, 'delivery-instructions': 'Leave at door', 'is-prime': 'true' }],
      headers,
    ).replace('recipient-name', 'Recipient-Name');
    const result = readAmazon(utf8(text));
    expect(result.rows[0]).toMatchObject({ ToRecipientName: 'Zoë Brontë', ToStreet1: '2187 Larkspur Ave' });
  });

  it('keeps a double quote in a product name as data', () => {
    const text = amazonText([
      amazonOrder({ 'product-name': 'Poster 24" x 36", "Vintage" print', 'order-id': '112-1' }),
      amazonOrder({ 'order-id': '112-2' }),
    ]);
    const result = readAmazon(utf8(text));
    expect(result.rows.map((r) => r.orderId)).toEqual(['112-1', '112-2']);
    expect(result.rows[0]!.PackageDescription).toBe('Poster 24" x 36", "Vintage" print');
  });

  it('turns state names into codes, keeps ZIP+4 and joins the third address line', () => {
    const result = readAmazon(
      utf8(
        amazonText([
          amazonOrder({
            'ship-state': 'new york',
            'ship-postal-code': '10001-0001',
            'ship-address-2': 'Floor 3',
            'ship-address-3': 'Attn: Receiving',
          }),
        ]),
      ),
    );
    expect(result.rows[0]).toMatchObject({
      ToStateProvince: 'NY',
      ToZipPostal: '10001-0001',
      ToStreet2: 'Floor 3, Attn: Receiving',
    });
  });

  it('moves the street up when Amazon leaves ship-address-1 blank', () => {
    const result = readAmazon(utf8(amazonText([amazonOrder({ 'ship-address-1': '', 'ship-address-2': '9 Elm St' })])));
    expect(result.rows[0]).toMatchObject({ ToStreet1: '9 Elm St', ToStreet2: '' });
  });

  it('falls back to quantity-purchased in reports without quantity-to-ship', () => {
    const headers = AMAZON_HEADERS.filter((h) => h !== 'quantity-to-ship');
    const result = readAmazon(utf8(amazonText([amazonOrder({ 'quantity-purchased': '6' })], headers)));
    expect(result.rows.map((r) => r.quantity)).toEqual([4, 2]);
  });

  it('prefers ship-phone-number to buyer-phone-number and drops an extension', () => {
    const headers = [...AMAZON_HEADERS, 'ship-phone-number'];
    const result = readAmazon(
      utf8(amazonText([amazonOrder({ 'ship-phone-number': '+1 206-555-0100 ext. 48213' })], headers)),
    );
    expect(result.rows[0]!.ToPhone).toBe('+1 206-555-0100');
  });

  it('warns about orders whose buyer asked to cancel', () => {
    const headers = [...AMAZON_HEADERS, 'is-buyer-requested-cancellation'];
    const result = readAmazon(
      utf8(amazonText([amazonOrder({ 'is-buyer-requested-cancellation': 'true', 'order-id': '114-9' })], headers)),
    );
    expect(result.warnings[0]).toContain('114-9');
  });
});

describe('Amazon reports that cannot be read', () => {
  it('names a missing required column', () => {
    const headers = AMAZON_HEADERS.filter((h) => h !== 'recipient-name');
    expectFileError(() => readAmazon(utf8(amazonText([amazonOrder()], headers))), 'Missing column: recipient-name');
  });

  it('names every missing column at once', () => {
    const headers = AMAZON_HEADERS.filter((h) => !['ship-city', 'quantity-to-ship', 'quantity-purchased'].includes(h));
    expectFileError(
      () => readAmazon(utf8(amazonText([amazonOrder()], headers))),
      'Missing columns: ship-city, quantity-to-ship',
    );
  });

  it.each([
    ['0', 'Row 3: quantity-to-ship must be a whole number of at least 1'],
    ['-2', 'Row 3: quantity-to-ship must be a whole number of at least 1'],
    ['1.5', 'Row 3: quantity-to-ship must be a whole number of at least 1'],
    ['lots', 'Row 3: quantity-to-ship must be a whole number of at least 1'],
  ])('refuses quantity %s naming the line', (quantity, message) => {
    const text = amazonText([amazonOrder(), amazonOrder({ 'quantity-to-ship': quantity })]);
    expectFileError(() => readAmazon(utf8(text)), message);
  });

  it('lists a few bad quantities and counts the rest', () => {
    const text = amazonText(Array.from({ length: 8 }, () => amazonOrder({ 'quantity-to-ship': '0' })));
    expectFileError(
      () => readAmazon(utf8(text)),
      /^Row 2: .*Row 6: quantity-to-ship must be a whole number of at least 1; and 3 more$/,
    );
  });

  it('is refused when the user has no saved address', () => {
    expectFileError(
      () => readOrderFile({ name: 'o.txt', data: utf8(amazonText([amazonOrder()])) }, ctx({ senderAddress: null })),
      'Please add an address first',
    );
  });

  it('refuses a report with a header and no orders', () => {
    expectFileError(() => readAmazon(utf8(amazonText([]))), 'This file has no orders');
  });

  it('refuses a file of unrelated columns by naming the marketplaces it reads', () => {
    expectFileError(() => readAmazon(utf8('name\tcity\nAda\tReno\n')), UNRECOGNISED_FILE_MESSAGE);
    expect(UNRECOGNISED_FILE_MESSAGE).toMatch(
      /\(Flatship CSV template, Amazon, Walmart, TikTok Shop, eBay, Shopify, Etsy\)/,
    );
  });

  it('names the missing columns of a report that is Amazon by its other columns', () => {
    expectFileError(
      () => readAmazon(utf8('order-id\tsku\tship-city\n1\tA\tReno\n')),
      /^Missing columns: recipient-name, ship-address-1, ship-state, ship-postal-code/,
    );
  });
});
