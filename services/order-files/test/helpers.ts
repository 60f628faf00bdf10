import { readFileSync } from 'node:fs';
import { utils, write } from '@e965/xlsx';
import type { Address, Sku } from '@flatship/proto';
import type { ReadContext } from '../src/index';

export const fixturesDir = new URL('./fixtures/', import.meta.url);
/** The shared originals, beside the repository (the CI checkout puts shared/ next to it). */
export const sharedFixturesDir = new URL('../../../../shared/fixtures/', import.meta.url);

export const readFixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, fixturesDir)));

export const savedAddress: Address = {
  _id: 'addr-1',
  address_id: 'WAREHOUSE',
  name: 'Ada Shipper',
  company: 'Acme Goods',
  phone: '(775) 555-0100',
  street: '100 Commerce Way',
  street2: 'Dock 3',
  city: 'Reno',
  state: 'Nevada',
  zip: '89501',
  country: 'US',
};

export const mugPreset: Sku = {
  _id: 'sku-1',
  sku: 'mug-11oz-wht',
  maxQty: 2,
  weight: 1.5,
  length: 8,
  width: 6,
  height: 5,
  description: 'Boxed mug',
};

export const ctx = (over: Partial<ReadContext> = {}): ReadContext => ({
  senderAddress: savedAddress,
  skus: [],
  ...over,
});

export const AMAZON_HEADERS = [
  'order-id',
  'order-item-id',
  'purchase-date',
  'buyer-name',
  'buyer-phone-number',
  'sku',
  'product-name',
  'quantity-purchased',
  'quantity-shipped',
  'quantity-to-ship',
  'recipient-name',
  'ship-address-1',
  'ship-address-2',
  'ship-address-3',
  'ship-city',
  'ship-state',
  'ship-postal-code',
  'ship-country',
];

export const amazonOrder = (over: Record<string, string> = {}): Record<string, string> => ({
  'order-id': '112-0000001-0000001',
  'order-item-id': '00012345678901',
  'purchase-date': '2025-09-22T14:05:11+00:00',
  'buyer-name': 'Harold Finch',
  'buyer-phone-number': '+1 415-555-0142',
  sku: 'TEE-BLK-M',
  'product-name': 'Cotton Tee',
  'quantity-purchased': '1',
  'quantity-shipped': '0',
  'quantity-to-ship': '1',
  'recipient-name': 'Harold Finch',
  'ship-address-1': '2187 Larkspur Ave',
  'ship-address-2': '',
  'ship-address-3': '',
  'ship-city': 'San Mateo',
  'ship-state': 'CA',
  'ship-postal-code': '94401',
  'ship-country': 'US',
  ...over,
});

/** An Amazon report as text: tab-separated, no quoting, in the given column order. */
export function amazonText(orders: Record<string, string>[], headers = AMAZON_HEADERS, eol = '\r\n'): string {
  const lines = [headers.join('\t'), ...orders.map((o) => headers.map((h) => o[h] ?? '').join('\t'))];
  return lines.join(eol) + eol;
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A workbook from rows of cells; numbers stay numbers, `{ n, z }` is a number with a display format. */
export function xlsxBytes(
  rows: (string | number | { n: number; z: string })[][],
  sheetName = 'Po Details',
): Uint8Array {
  const sheet = utils.aoa_to_sheet(rows.map((r) => r.map((c) => (typeof c === 'object' ? c.n : c))));
  rows.forEach((r, ri) => {
    r.forEach((c, ci) => {
      const cell = typeof c === 'object' ? sheet[utils.encode_cell({ r: ri, c: ci })] : undefined;
      if (cell && typeof c === 'object') cell.z = c.z;
    });
  });
  const book = utils.book_new();
  utils.book_append_sheet(book, sheet, sheetName);
  return new Uint8Array(write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}

export const WALMART_HEADERS = [
  'PO#',
  'Order#',
  'Order Date',
  'Customer Name',
  'Customer Phone Number',
  'Ship to Address 1',
  'Ship to Address 2',
  'City',
  'State',
  'Zip',
  'Line#',
  'Status',
  'Item Description',
  'Qty',
  'SKU',
];
