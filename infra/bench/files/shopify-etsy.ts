/**
 * 10,000-package Shopify and Etsy exports for `make bench-files`, with their real headers (the repository's
 * fixtures) and quirks: Shopify's follow-on line items with a blank address and ZIPs with a leading apostrophe;
 * Etsy's country names, re-saved by Excel (tab-delimited, Windows-1252 with mojibake, 4-digit ZIPs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BulkOrderItem } from '@flatship/proto';

const headerOf = (fixtures: string, name: string, delimiter: string): string[] =>
  readFileSync(join(fixtures, name), 'latin1').split(/\r?\n/)[0]!.split(delimiter);

const t = (v: string | number | null | undefined): string => (v === null || v === undefined ? '' : String(v));

const csvCell = (v: string): string => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** Orders of two line items each: the second line repeats only the order number and its item, as Shopify does. */
export function shopifyFile(fixtures: string, items: readonly BulkOrderItem[]): Uint8Array {
  const header = headerOf(fixtures, 'shopify/orders_export.csv', ',');
  const lines = [header.join(',')];
  items.forEach((item, i) => {
    const r = item.receiver;
    const first = i % 2 === 0;
    const value: Record<string, string> = {
      Name: `#${1000 + Math.floor(i / 2)}`,
      'Created at': '2026-12-01 10:12:03 -0500',
      'Lineitem quantity': '1',
      'Lineitem name': item.package.package_description ?? '',
      'Lineitem sku': item.package.sku_number ?? '',
      'Lineitem requires shipping': 'true',
      'Lineitem fulfillment status': 'pending',
      ...(first
        ? {
            'Financial Status': 'paid',
            'Fulfillment Status': 'unfulfilled',
            'Shipping Name': t(r.receiver_name),
            'Shipping Street': t(r.receiver_address1),
            'Shipping Address1': t(r.receiver_address1),
            'Shipping Address2': t(r.receiver_address2),
            'Shipping City': t(r.receiver_city),
            'Shipping Zip': `'${t(r.receiver_zip_postal)}`,
            'Shipping Province': t(r.receiver_state_province),
            'Shipping Country': 'US',
            'Shipping Phone': t(r.receiver_phone),
          }
        : {}),
    };
    lines.push(header.map((h) => csvCell(value[h] ?? '')).join(','));
  });
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

/** One order a package, as Excel saves it: tab-delimited Windows-1252 (a mojibake name and a genuine ë in ten rows each), ZIPs as numbers. */
export function etsyFile(fixtures: string, items: readonly BulkOrderItem[]): Uint8Array {
  const header = headerOf(fixtures, 'etsy/EtsySoldOrders2026-12.csv', ',');
  const lines = [header.join('\t')];
  items.forEach((item, i) => {
    const r = item.receiver;
    const name = i % 10 === 0 ? 'JosÃ© MuÃ±oz' : i % 10 === 5 ? 'Zoë Brandt' : t(r.receiver_name);
    const value: Record<string, string> = {
      'Sale Date': '12/01/26',
      'Order ID': String(3_301_000_000 + i),
      'Full Name': name,
      'Number of Items': '1',
      'Street 1': t(r.receiver_address1),
      'Street 2': t(r.receiver_address2),
      'Ship City': t(r.receiver_city),
      'Ship State': t(r.receiver_state_province),
      'Ship Zipcode': t(r.receiver_zip_postal).replace(/^0/, ''),
      'Ship Country': 'United States',
      SKU: item.package.sku_number ?? '',
    };
    lines.push(header.map((h) => value[h] ?? '').join('\t'));
  });
  return new Uint8Array(Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'));
}
