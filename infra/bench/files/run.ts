/**
 * Reads and validates 10,000-package order files the way the bulk screen does
 * (`readOrderFile` from @flatship/order-files) and prints the median time per
 * format against the 250 ms target, with each file's size.
 *
 *   node --import tsx infra/bench/files/run.ts [--runs 7] [--rows 10000] [--baseline /path/to/other/checkout]
 *
 * With --baseline, the other checkout's reader (its services/order-files) reads the same files in
 * the same process, alternating run by run with this one, so both see the same machine load.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { readOrderFile, TEMPLATE_HEADERS } from '@flatship/order-files';
import type { Address, Sku } from '@flatship/proto';
import { amazonRows } from '../bulk/rows';
import { median } from '../stats';
import { browserMedians, chromiumAvailable } from './browser';
import { ebayFile } from './ebay';
import { etsyFile, shopifyFile } from './shopify-etsy';
import { tiktokCsvFile, tiktokXlsxFile } from './tiktok';

const TARGET_MS = 250;
// The repository's copies of the marketplace samples (the order-files tests check they match the shared originals).
const FIXTURES = join(import.meta.dirname, '../../../services/order-files/test/fixtures');

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}
const runs = option('runs', 7);
const baselineAt = process.argv.indexOf('--baseline');
const baselineDir = baselineAt >= 0 ? process.argv[baselineAt + 1] : undefined;
const count = option('rows', 10_000);

const sender: Address = {
  _id: 'a1',
  address_id: 'a1',
  name: 'Harbor Goods Fulfillment',
  company: 'Harbor Goods LLC',
  phone: '512-555-0142',
  street: '100 Congress Ave',
  street2: 'Suite 200',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US',
};

const items = amazonRows(count);

const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

// The seller's SKU presets (the `HG-1xx` SKUs of rows.ts): marketplace files carry no sizes, so
// without them every Amazon and Walmart row would fail validation on its missing weight.
const skus: Sku[] = Array.from({ length: 25 }, (_, n) => ({
  _id: `sku${n}`,
  sku: `HG-${100 + n}`,
  maxQty: 5,
  weight: 1 + (n % 12) * 0.5,
  length: 6 + (n % 10),
  width: 4 + (n % 8),
  height: 2 + (n % 6),
  description: `Harbor Goods item ${100 + n}`,
}));

function amazonFile(): Uint8Array {
  const header = readFileSync(join(FIXTURES, 'amazon-unshipped-sample.txt'), 'utf8').split(/\r?\n/)[0]!.split('\t');
  const lines = [header.join('\t')];
  items.forEach((item, i) => {
    const r = item.receiver;
    const value: Record<string, unknown> = {
      'order-id': item.sender.order_id ?? '',
      'order-item-id': String(item.package.order_item_id ?? ''),
      'purchase-date': '2025-09-22T14:05:11+00:00',
      'buyer-name': r.receiver_name,
      'buyer-phone-number': r.receiver_phone ?? '',
      sku: item.package.sku_number ?? '',
      'number-of-items': '1',
      'product-name': item.package.package_description ?? '',
      'quantity-purchased': '1',
      'quantity-shipped': '0',
      'quantity-to-ship': '1',
      'ship-service-level': 'Standard',
      'recipient-name': r.receiver_name,
      'ship-address-1': r.receiver_address1,
      'ship-address-2': r.receiver_address2 ?? '',
      'ship-city': r.receiver_city,
      'ship-state': r.receiver_state_province,
      'ship-postal-code': r.receiver_zip_postal,
      'ship-country': 'US',
      'sales-channel': 'Amazon.com',
      'is-business-order': i % 10 === 0 ? 'true' : 'false',
    };
    lines.push(header.map((h) => text(value[h])).join('\t'));
  });
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

function walmartFile(): Uint8Array {
  const book = XLSX.read(readFileSync(join(FIXTURES, 'walmart-orders-sample.xlsx')));
  const header = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 })[0]!;
  const rows: (string | null)[][] = [header];
  items.forEach((item, i) => {
    const r = item.receiver;
    const value: Record<string, unknown> = {
      'PO#': String(108_829_140_000 + i),
      'Order#': String(200_011_938_000_000 + i),
      'Order Date': '2025-09-22',
      'Ship By': '2025-09-24',
      'Customer Name': r.receiver_name,
      'Customer Phone Number': text(r.receiver_phone).replace(/\D/g, '').slice(-10),
      'Ship to Address 1': r.receiver_address1,
      'Ship to Address 2': r.receiver_address2 ?? '',
      City: r.receiver_city,
      State: r.receiver_state_province,
      Zip: r.receiver_zip_postal,
      'Line#': '1',
      Status: 'Acknowledged',
      'Item Description': item.package.package_description ?? '',
      'Shipping Method': 'Standard',
      Qty: '1',
      SKU: item.package.sku_number ?? '',
      'Fulfillment Entity': 'Seller',
    };
    rows.push(header.map((h) => text(value[h]) || null));
  });
  const out = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(out, XLSX.utils.aoa_to_sheet(rows), 'Po Details');
  return new Uint8Array(XLSX.write(out, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}

function csvFile(): Uint8Array {
  const quote = (v: unknown): string => {
    const s = v === undefined || v === null ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const lines = [TEMPLATE_HEADERS.map(quote).join(',')];
  for (const item of items) {
    const s = item.sender;
    const r = item.receiver;
    const p = item.package;
    const value: Record<string, unknown> = {
      'Order ID': s.order_id,
      SKU: p.sku_number,
      Quantity: 1,
      'From Name': s.sender_name,
      'From Company': s.sender_company,
      'From Phone': s.sender_phone,
      'From Street 1': s.sender_address1,
      'From Street 2': s.sender_address2,
      'From City': s.sender_city,
      'From State': s.sender_state_province,
      'From Zip': s.sender_zip_postal,
      'From Country': 'US',
      'To Name': r.receiver_name,
      'To Company': r.receiver_company,
      'To Phone': r.receiver_phone,
      'To Street 1': r.receiver_address1,
      'To Street 2': r.receiver_address2,
      'To City': r.receiver_city,
      'To State': r.receiver_state_province,
      'To Zip': r.receiver_zip_postal,
      'To Country': 'US',
      Length: p.package_length,
      Width: p.package_width,
      Height: p.package_height,
      Weight: p.package_weight,
      Description: p.package_description,
    };
    lines.push(TEMPLATE_HEADERS.map((h) => quote(value[h])).join(','));
  }
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

const files = [
  { format: 'Amazon .txt (TSV)', name: 'orders.txt', data: amazonFile() },
  { format: 'Walmart .xlsx', name: 'orders.xlsx', data: walmartFile() },
  { format: 'template .csv', name: 'orders.csv', data: csvFile() },
  { format: 'eBay .csv', name: 'ebay-orders.csv', data: ebayFile(items, FIXTURES) },
  { format: 'TikTok Shop .csv', name: 'tiktok.csv', data: tiktokCsvFile(items, FIXTURES) },
  { format: 'TikTok Shop .xlsx', name: 'tiktok.xlsx', data: tiktokXlsxFile(items, FIXTURES) },
  { format: 'Shopify .csv', name: 'orders_export.csv', data: shopifyFile(FIXTURES, items) },
  { format: 'Etsy (Excel .txt)', name: 'EtsySoldOrders.txt', data: etsyFile(FIXTURES, items) },
];

type Reader = typeof readOrderFile;
const readers: { label: string; read: Reader }[] = [{ label: '', read: readOrderFile }];
if (baselineDir) {
  const other = (await import(join(baselineDir, 'services/order-files/src/index.ts'))) as { readOrderFile: Reader };
  readers.unshift({ label: 'before', read: other.readOrderFile });
  readers[1]!.label = 'after';
}

console.log(
  `read + validate ${count} packages, median of ${runs} runs after a warm-up; target ${TARGET_MS} ms; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  '(wall ms is the figure; process CPU ms, which includes the garbage collector threads, varies less with the load)',
);
for (const file of files) {
  const read = (reader: Reader): { ms: number; cpu: number } => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const result = reader({ name: file.name, data: file.data }, { senderAddress: sender, skus });
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (result.rows.length !== count)
      throw new Error(`${file.format}: read ${result.rows.length} rows, expected ${count}`);
    return { ms, cpu: (used.user + used.system) / 1000 };
  };
  const warnings = readers.map(
    ({ read: reader }) => reader({ name: file.name, data: file.data }, { senderAddress: sender, skus }).warnings,
  );
  const times = readers.map(() => [] as { ms: number; cpu: number }[]);
  for (let run = 0; run < runs; run++) {
    readers.forEach(({ read: reader }, i) => {
      times[i]!.push(read(reader));
    });
  }
  readers.forEach(({ label }, i) => {
    const ms = median(times[i]!.map((t) => t.ms));
    const cpu = median(times[i]!.map((t) => t.cpu));
    const name = label ? `${file.format} ${label}` : file.format;
    console.log(
      `${name.padEnd(25)} ${(file.data.length / 1024).toFixed(0).padStart(6)} KB  ${ms.toFixed(0).padStart(5)} ms  (CPU ${cpu.toFixed(0).padStart(4)} ms)  ${ms <= TARGET_MS ? 'within' : 'over'} the ${TARGET_MS} ms target  (warnings: ${warnings[i]!.join('; ') || 'none'})`,
    );
  });
}

// The bulk screen reads files in the browser: the same reads in Chromium, with the reader bundled for it.
if (chromiumAvailable()) {
  const checkouts = [...(baselineDir ? [baselineDir] : []), resolve(import.meta.dirname, '../../..')];
  const medians = await browserMedians(checkouts, files, { senderAddress: sender, skus }, runs);
  console.log(
    `in Chromium (the reader bundled and minified for the browser, as the bulk screen loads it; CPU is the renderer's), median of ${runs}:`,
  );
  files.forEach((file, f) => {
    readers.forEach(({ label }, i) => {
      const { ms, cpu } = medians[i]![f]!;
      const name = label ? `${file.format} ${label}` : file.format;
      console.log(
        `${name.padEnd(25)} ${' '.repeat(9)}  ${ms.toFixed(0).padStart(5)} ms  (CPU ${cpu.toFixed(0).padStart(4)} ms)  ${ms <= TARGET_MS ? 'within' : 'over'} the ${TARGET_MS} ms target`,
      );
    });
  });
} else console.log('Chromium not found (/usr/bin/chromium or CHROMIUM_PATH): no browser figures');
