import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BulkOrderItem } from '@flatship/proto';

const quote = (v: unknown): string => {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/**
 * An eBay Seller Hub orders report (82 columns, framed as eBay writes it: a line of bare commas, the header, an
 * empty row, the data, a blank line and the footer) holding one package per item: every other pair of items is
 * one multi-item order (a summary row with the address, then a row per item), the rest single-item orders.
 */
export function ebayFile(items: BulkOrderItem[], fixtures: string): Uint8Array {
  const header = readFileSync(join(fixtures, 'ebay/ebay-orders-82.csv'), 'utf8').split(/\r?\n/)[1]!.split(',');
  const line = (value: Record<string, unknown>) => header.map((h) => quote(value[h])).join(',');
  const lines = [','.repeat(header.length - 1), header.join(','), ','.repeat(header.length - 1)];
  const address = (item: BulkOrderItem, orderNumber: string) => ({
    'Order Number': orderNumber,
    'Ship To Name': item.receiver.receiver_name,
    'Ship To Phone': item.receiver.receiver_phone ?? '',
    'Ship To Address 1': item.receiver.receiver_address1,
    'Ship To Address 2': item.receiver.receiver_address2 ?? '',
    'Ship To City': item.receiver.receiver_city,
    'Ship To State': item.receiver.receiver_state_province,
    'Ship To Zip': item.receiver.receiver_zip_postal,
    'Ship To Country': 'United States',
    'Sale Date': 'Sep-16-26',
    'Total Price': '$24.68',
  });
  const itemCells = (item: BulkOrderItem, i: number, orderNumber: string) => ({
    'Order Number': orderNumber,
    'Item Number': String(335_500_000_000 + i),
    'Item Title': item.package.package_description ?? '',
    'Custom Label': item.package.sku_number ?? '',
    Quantity: '1',
    'Sold For': '$12.34',
    'Transaction ID': String(2_894_000_000_000 + i),
  });
  for (let i = 0; i < items.length; i++) {
    const orderNumber = `12-${String(10_000 + i).padStart(5, '0')}-${String(40_000 + i).padStart(5, '0')}`;
    if (i % 4 === 0 && i + 1 < items.length) {
      lines.push(line({ ...address(items[i]!, orderNumber), Quantity: '2' }));
      lines.push(line(itemCells(items[i]!, i, orderNumber)));
      lines.push(line(itemCells(items[i + 1]!, i + 1, orderNumber)));
      i++;
    } else lines.push(line({ ...address(items[i]!, orderNumber), ...itemCells(items[i]!, i, orderNumber) }));
  }
  lines.push(
    '',
    `${items.length},record(s) downloaded,from Sep-01-26 00:00:00 to Sep-17-26 23:59:59`,
    'Seller ID : bench',
  );
  return new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
}
