import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { BulkOrderItem } from '@flatship/proto';

/** The fixture's header (the real 63-column US export) and its description row. */
function headerAndDescription(fixtures: string): [string[], string[]] {
  const csv = readFileSync(join(fixtures, 'tiktok/tiktok-orders.csv'), 'utf8').replace(/^\uFEFF/, '');
  const [header, description] = csv.split(/\r?\n/);
  return [header!.split(','), description!.split(',')];
}

const STATE_NAMES: Record<string, string> = { TX: 'Texas', CA: 'California', NY: 'New York', IL: 'Illinois' };

/** One row per package, with the export's quirks: ids and times ending in a tab, full state names, `(+1)` phones. */
function tiktokRows(items: BulkOrderItem[], header: string[]): string[][] {
  return items.map((item, i) => {
    const r = item.receiver;
    const state = r.receiver_state_province ?? '';
    const value: Record<string, string> = {
      'Order ID': `${576_461_413_000_000_000n + BigInt(i)}\t`,
      'Order Status': 'To ship',
      'Order Substatus': 'Awaiting shipment',
      'SKU ID': `${1_729_384_756_012_345_000n + BigInt(i % 25)}\t`,
      'Seller SKU': item.package.sku_number ?? '',
      'Product Name': item.package.package_description ?? '',
      Quantity: '1',
      'Created Time': '10/02/2025 9:14:07 AM\t',
      'Paid Time': '10/02/2025 9:14:31 AM\t',
      'Fulfillment Type': 'Fulfillment by seller',
      Recipient: r.receiver_name ?? '',
      'Phone #': `(+1)${String(r.receiver_phone ?? '')
        .replace(/\D/g, '')
        .slice(-10)}`,
      Country: 'United States',
      State: STATE_NAMES[state] ?? state,
      City: r.receiver_city ?? '',
      Zipcode: String(r.receiver_zip_postal ?? ''),
      'Address Line 1': r.receiver_address1 ?? '',
      'Address Line 2': r.receiver_address2 ?? '',
    };
    return header.map((h) => value[h] ?? '');
  });
}

const csvCell = (v: string): string => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** TikTok Shop's CSV export of the items: BOM, header, description row, one row per package. */
export function tiktokCsvFile(items: BulkOrderItem[], fixtures: string): Uint8Array {
  const [header, description] = headerAndDescription(fixtures);
  const lines = [header, description, ...tiktokRows(items, header)].map((row) => row.map(csvCell).join(','));
  return new TextEncoder().encode(`\uFEFF${lines.join('\r\n')}\r\n`);
}

/** The same export as .xlsx, sheet `OrderSKUList`. */
export function tiktokXlsxFile(items: BulkOrderItem[], fixtures: string): Uint8Array {
  const [header, description] = headerAndDescription(fixtures);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    // Blank cells are absent, as in the export (an empty text cell in each would triple the file).
    XLSX.utils.aoa_to_sheet([
      header,
      description,
      ...tiktokRows(items, header).map((row) => row.map((c) => c || null)),
    ]),
    'OrderSKUList',
  );
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}
