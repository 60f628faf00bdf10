import { SKU_LIMITS, type Sku } from '@flatship/proto';
import { type BulkRow, DEFAULT_QUANTITY } from './bulk-row';

const skuKey = (sku: string): string => sku.trim().toLowerCase();

/** SKUs are unique per user ignoring case (spec doc 2 §5), so they are matched the same way. */
export function indexSkus(skus: Sku[]): Map<string, Sku> {
  const map = new Map<string, Sku>();
  for (const sku of skus) {
    const key = skuKey(sku.sku);
    if (key !== '' && !map.has(key)) map.set(key, sku);
  }
  return map;
}

/**
 * A row whose SKU has a preset takes the preset's weight, length, width, height and
 * description (spec doc 2 §5). A preset without a description keeps the row's own (the
 * marketplace's product name), which says more than nothing on the label.
 */
export function applySkuPresets(rows: BulkRow[], skus: Sku[]): BulkRow[] {
  const presets = indexSkus(skus);
  if (presets.size === 0) return rows;
  return rows.map((row) => {
    const preset = presets.get(skuKey(row.skuNumber));
    if (!preset) return row;
    return {
      ...row,
      PackageWeight: preset.weight,
      PackageLength: preset.length,
      PackageWidth: preset.width,
      PackageHeight: preset.height,
      PackageDescription: preset.description.trim() || row.PackageDescription,
    };
  });
}

const maxQtyOf = (preset: Sku | undefined): number =>
  preset && Number.isInteger(preset.maxQty) && preset.maxQty >= 1 ? preset.maxQty : SKU_LIMITS.defaultMaxQty;

const quantityOf = (row: BulkRow): number =>
  row.quantity !== null && Number.isInteger(row.quantity) && row.quantity >= 1 ? row.quantity : DEFAULT_QUANTITY;

/** How many rows splitByMaxQty would make, without making them (to refuse a huge file cheaply). */
export function countSplitRows(rows: BulkRow[], skus: Sku[]): number {
  const presets = indexSkus(skus);
  let total = 0;
  for (const row of rows) total += Math.ceil(quantityOf(row) / maxQtyOf(presets.get(skuKey(row.skuNumber))));
  return total;
}

/**
 * Splits each row into packages of at most its SKU's maxQty (default 4): quantity 9 with
 * maxQty 4 gives 4, 4 and 1. Rows with a SKU come first, sorted by SKU, then by quantity
 * descending; rows without a SKU follow in file order (spec doc 2 §5). A split row's parts
 * get ids `<id>-1`, `<id>-2`, … so the table's keys stay unique.
 */
export function splitByMaxQty(rows: BulkRow[], skus: Sku[]): BulkRow[] {
  const presets = indexSkus(skus);
  const parts: BulkRow[] = [];
  for (const row of rows) {
    const maxQty = maxQtyOf(presets.get(skuKey(row.skuNumber)));
    let remaining = quantityOf(row);
    const count = Math.ceil(remaining / maxQty);
    if (count === 1) {
      parts.push({ ...row, quantity: remaining });
      continue;
    }
    for (let k = 1; k <= count; k++) {
      const quantity = Math.min(maxQty, remaining);
      remaining -= quantity;
      parts.push({ ...row, _id: `${row._id}-${k}`, quantity });
    }
  }
  // Each row's sort key is made once, not at every comparison.
  const withSku: { row: BulkRow; key: string }[] = [];
  const withoutSku: BulkRow[] = [];
  for (const row of parts) {
    const sku = row.skuNumber.trim();
    if (sku === '') withoutSku.push(row);
    else withSku.push({ row, key: sku.toUpperCase() });
  }
  // Array.prototype.sort is stable, so equal SKU and quantity keep file order.
  withSku.sort(bySkuThenQuantity);
  const sorted = withSku.map(rowOf);
  for (const row of withoutSku) sorted.push(row);
  return sorted;
}

// A fixed code-point order: the same file sorts the same in every browser and on the server.
function bySkuThenQuantity(a: { row: BulkRow; key: string }, b: { row: BulkRow; key: string }): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return (b.row.quantity ?? 0) - (a.row.quantity ?? 0);
}

const rowOf = (entry: { row: BulkRow }): BulkRow => entry.row;
