import { AppError } from '@flatship/kit';
import { SKU_LIMITS } from '@flatship/proto';
import { SKU_MESSAGES } from './sku-messages';
import type { SkuFields } from './sku-ports';

// The SKU preset rules (spec doc 2 §3 and §5), pure: the add, upsert and update use cases all go through
// validateSku, so they cannot drift apart.

type NumberKey = 'maxQty' | 'weight' | 'length' | 'width' | 'height';

/** How each number is named in messages, in the order the table shows them (and problems are reported). */
const NUMBER_LABELS = {
  maxQty: 'Max Quantity',
  weight: 'Weight',
  length: 'Length',
  width: 'Width',
  height: 'Height',
} as const satisfies Record<NumberKey, string>;

const MAX: Record<NumberKey, number> = {
  maxQty: SKU_LIMITS.maxQtyMax,
  weight: SKU_LIMITS.weightMax,
  length: SKU_LIMITS.dimensionMax,
  width: SKU_LIMITS.dimensionMax,
  height: SKU_LIMITS.dimensionMax,
};

// Plain decimals only: Number() would also take '0x1A', '1e3' or 'Infinity', which no one means as a size.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

class SkuRuleError extends Error {}

const text = (raw: unknown): string =>
  typeof raw === 'string' ? raw.trim() : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : '';

function positiveNumber(raw: unknown, key: NumberKey): number {
  const label = NUMBER_LABELS[key];
  const value = typeof raw === 'number' ? raw : text(raw);
  // A blank cell is what a user who skipped the field sends; it is not a positive number.
  if (value === '') throw new SkuRuleError(`${label} must be greater than 0`);
  const n = typeof value === 'number' ? value : DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw new SkuRuleError(`${label} must be a number`);
  if (n <= 0) throw new SkuRuleError(`${label} must be greater than 0`);
  if (key === 'maxQty' && !Number.isInteger(n)) throw new SkuRuleError(`${label} must be a whole number`);
  if (n > MAX[key]) throw new SkuRuleError(`${label} must be at most ${MAX[key]}`);
  return n;
}

function checkFields(raw: unknown): SkuFields {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new SkuRuleError(SKU_MESSAGES.notAnObject);
  const input = raw as Record<string, unknown>;
  const sku = text(input.sku);
  if (!sku) throw new SkuRuleError(SKU_MESSAGES.skuRequired);
  if (sku.length > SKU_LIMITS.textMax) throw new SkuRuleError(`SKU must be at most ${SKU_LIMITS.textMax} characters`);
  const numbers = {} as Record<NumberKey, number>;
  for (const key of Object.keys(NUMBER_LABELS) as NumberKey[]) numbers[key] = positiveNumber(input[key], key);
  const description = text(input.description);
  if (description.length > SKU_LIMITS.textMax) {
    throw new SkuRuleError(`Description must be at most ${SKU_LIMITS.textMax} characters`);
  }
  return { sku, ...numbers, description };
}

/** Checks one preset as a form or edited row sends it; throws SKU_INVALID naming the first bad field. */
export function validateSku(raw: unknown): SkuFields {
  try {
    return checkFields(raw);
  } catch (e) {
    if (e instanceof SkuRuleError) throw new AppError('SKU_INVALID', e.message);
    throw e;
  }
}

/**
 * Where a message points in a list: 'Row 3: ' (1-based, the first data row of a CSV is row 1). A list of one
 * is what the add dialog sends, so its messages read as the form's own.
 */
export const rowPrefix = (index: number, count: number) => (count > 1 ? `Row ${index + 1}: ` : '');

/** Checks every preset of a list, stopping at the first bad one and naming its row. */
export function validateSkuList(rows: unknown[]): SkuFields[] {
  return rows.map((raw, i) => {
    try {
      return checkFields(raw);
    } catch (e) {
      if (e instanceof SkuRuleError) throw new AppError('SKU_INVALID', `${rowPrefix(i, rows.length)}${e.message}`);
      throw e;
    }
  });
}

/** The key SKUs are compared by: people and marketplaces write one SKU in different cases. */
export const skuKey = (sku: string) => sku.toLowerCase();
