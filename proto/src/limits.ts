// No schema library here: the browser bundle imports these values.
import { type DecimalResult, type DecimalRule, NUMBER_RULES, parseDecimal } from './numbers';

/** Limits shared by the browser and the server. */
export const LIMITS = {
  nameMax: 200,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 200,
  /** A chosen referral code: long enough not to be hit by typing a few letters, short enough to read aloud. */
  referralCodeMin: 4,
  referralCodeMax: 32,
  /** Every saved-address field. */
  addressFieldMax: 200,
  savedAddressesMax: 500,
} as const;

/** Limits on saved SKU presets; the server enforces them and the SKU page shows the same bounds. */
export const SKU_LIMITS = {
  /** SKU and description. */
  textMax: 200,
  /** USPS domestic packages weigh at most 70 lb. */
  weightMax: NUMBER_RULES.skuWeightLb.max,
  /** Inches; no side of a USPS package may exceed 108 in. */
  dimensionMax: NUMBER_RULES.skuDimensionIn.max,
  /** A preset holds a package's worth; bulk orders are capped at 10,000 rows. */
  maxQtyMax: NUMBER_RULES.skuMaxQty.max,
  skusPerUserMax: 5_000,
  /** Rows in one add-sku call (a CSV upload sends the whole file). */
  listMax: 5_000,
  /** Used by the bulk screen when a row's SKU has no preset. */
  defaultMaxQty: 4,
} as const;

/** The numbers of a SKU preset, as messages name them, in the order the SKU table shows them. */
export const SKU_NUMBER_LABELS = {
  maxQty: 'Max Quantity',
  weight: 'Weight',
  length: 'Length',
  width: 'Width',
  height: 'Height',
} as const;
export type SkuNumberKey = keyof typeof SKU_NUMBER_LABELS;

/** Each above 0 (spec doc 2 §5), a quantity whole, weight and sizes to two decimals, within USPS's limits. */
export const SKU_NUMBER_RULES: Record<SkuNumberKey, DecimalRule> = {
  maxQty: NUMBER_RULES.skuMaxQty,
  weight: NUMBER_RULES.skuWeightLb,
  length: NUMBER_RULES.skuDimensionIn,
  width: NUMBER_RULES.skuDimensionIn,
  height: NUMBER_RULES.skuDimensionIn,
};

/**
 * One number of a SKU preset, checked as the server stores it and the SKU page checks it before sending, with the
 * spec's texts ('Max Quantity must be greater than 0', doc 2 §5). A blank is not a positive number either.
 */
export function checkSkuNumber(key: SkuNumberKey, raw: unknown): DecimalResult {
  const label = SKU_NUMBER_LABELS[key];
  return parseDecimal(raw, label, SKU_NUMBER_RULES[key], { blank: `${label} must be greater than 0` });
}

/** The longest file name a bulk order keeps (POST /api/orders/bulk/process); the bulk screen cuts a longer one. */
export const BULK_FILE_NAME_MAX = 255;

/** GET /api/payment/deposits/{userId}: what an absent page, limit or filter means; the deposit page asks for the same. */
export const DEPOSITS_DEFAULT_QUERY = { page: 1, limit: 7, filter: 'all' } as const;
