import Papa from 'papaparse';
import type { SkuPresetInput } from './sku-api';

const FIELDS = ['sku', 'maxQty', 'weight', 'length', 'width', 'height', 'description'] as const;
// Headers are matched whatever their case ("SKU", "MaxQty", "maxqty").
const FIELD_BY_HEADER = new Map<string, string>(FIELDS.map((f) => [f.toLowerCase(), f]));

export type SkuCsvResult = { ok: true; rows: SkuPresetInput[] } | { ok: false; message: string };

/**
 * Reads an uploaded SKU file (spec doc 2 §5): the first line holds the headers sku, maxQty, weight, length, width,
 * height, description; empty lines are skipped. Cells are sent as written (trimmed): the server checks them and
 * names the row of the first bad one. Unknown columns are ignored, a missing one is sent empty.
 */
export function parseSkuCsv(text: string): SkuCsvResult {
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => {
      const key = header.trim().toLowerCase();
      return FIELD_BY_HEADER.get(key) ?? key;
    },
  });
  // A short or long line still has its cells; only broken quoting leaves the data in doubt.
  const broken = parsed.errors.find((e) => e.type !== 'FieldMismatch');
  if (broken) return { ok: false, message: broken.message };
  const rows = parsed.data.map((cells) => {
    const cell = (field: (typeof FIELDS)[number]) => (cells[field] ?? '').trim();
    return {
      sku: cell('sku'),
      maxQty: cell('maxQty'),
      weight: cell('weight'),
      length: cell('length'),
      width: cell('width'),
      height: cell('height'),
      description: cell('description'),
    };
  });
  return { ok: true, rows };
}
