import { AppError } from '@flatship/kit';
import { checkSkuNumber, SKU_LIMITS, SKU_NUMBER_LABELS, type SkuNumberKey } from '@flatship/proto';
import { SKU_MESSAGES } from './sku-messages';
import type { SkuFields } from './sku-ports';

// The SKU preset rules (spec doc 2 §3 and §5), pure: the add, upsert and update use cases all go through
// validateSku, so they cannot drift apart.

class SkuRuleError extends Error {}

const text = (raw: unknown): string =>
  typeof raw === 'string' ? raw.trim() : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : '';

/** Plain decimals only (proto's parseDecimal): Number() would also take '0x1A', '1e3' or 'Infinity'. */
function positiveNumber(raw: unknown, key: SkuNumberKey): number {
  // The same check, texts and bounds as the SKU page's table and form (proto's checkSkuNumber).
  const checked = checkSkuNumber(key, raw);
  if (!checked.ok) throw new SkuRuleError(checked.message);
  return checked.value;
}

function checkFields(raw: unknown): SkuFields {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new SkuRuleError(SKU_MESSAGES.notAnObject);
  const input = raw as Record<string, unknown>;
  const sku = text(input.sku);
  if (!sku) throw new SkuRuleError(SKU_MESSAGES.skuRequired);
  if (sku.length > SKU_LIMITS.textMax) throw new SkuRuleError(`SKU must be at most ${SKU_LIMITS.textMax} characters`);
  const numbers = {} as Record<SkuNumberKey, number>;
  // In the order the table shows them, which is the order problems are reported in.
  for (const key of Object.keys(SKU_NUMBER_LABELS) as SkuNumberKey[]) numbers[key] = positiveNumber(input[key], key);
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
