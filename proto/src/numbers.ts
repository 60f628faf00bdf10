// No schema library here: the browser bundle imports this parser.

/**
 * The one way a number typed by a person (a form field, a table cell, a CSV cell, a JSON
 * value) becomes a number, on the server and in the browser alike.
 *
 * Grammar, after trimming surrounding spaces: digits, optionally a point and more digits
 * ("12", "2.5", "0.06"), or a point and digits as people write in spreadsheets (".5"); a
 * leading minus is read only to be refused as below the minimum. Everything else JavaScript's
 * Number() would take is refused: hex "0x10", octal "0o10", binary "0b10", exponents "1e3",
 * "Infinity", "NaN", "+5", "5." (unfinished), "1,000", and "" (blank).
 * A JSON number is held to the same rules through its shortest decimal form, so 1e-308 has
 * far more decimals than any field allows and is refused, never rounded to something else.
 */

export interface DecimalRule {
  /** Digits allowed after the point; 0 means whole numbers only. */
  decimals: number;
  /** The smallest value allowed, itself included unless `minExclusive`. */
  min: number;
  minExclusive?: boolean;
  /** The largest value allowed, itself included. None: a later rule (a service's maximum weight) decides. */
  max?: number;
  /** Said after `max` in the message: "at most 108 inches". */
  unit?: string;
}

export type DecimalProblem = 'blank' | 'format' | 'too-small' | 'too-precise' | 'too-large';

export type DecimalResult = { ok: true; value: number } | { ok: false; problem: DecimalProblem; message: string };

const PLAIN_DECIMAL = /^-?(?:\d+(?:\.(\d+))?|\.(\d+))$/;

/** A number as written in plain decimal notation, with how many decimals it has, or why it is not one. */
export function readDecimal(raw: unknown): { value: number; decimals: number } | 'blank' | 'format' {
  if (raw === null || raw === undefined) return 'blank';
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return 'format';
    const value = raw === 0 ? 0 : raw; // -0 is 0
    // A whole number below 1e21 is written without a point or an exponent: no decimals.
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return { value, decimals: 0 };
    // The shortest text that reads back as this number: 2.5 → "2.5", 1e-7 → "1e-7", 1e21 → "1e+21".
    const [mantissa = '', exponent] = String(value).split('e');
    const fraction = mantissa.split('.')[1]?.length ?? 0;
    return { value, decimals: Math.max(0, fraction - Number(exponent ?? 0)) };
  }
  if (typeof raw !== 'string') return 'format';
  const text = raw.trim();
  if (text === '') return 'blank';
  const m = PLAIN_DECIMAL.exec(text);
  if (!m) return 'format';
  const value = Number(text);
  // Hundreds of digits read as Infinity: a decimal, but not a number anyone can use.
  if (!Number.isFinite(value)) return 'format';
  return { value: value === 0 ? 0 : value, decimals: (m[1] ?? m[2] ?? '').length };
}

const formatMessage = (label: string, rule: DecimalRule) =>
  rule.decimals === 0 ? `${label} must be a whole number like 3` : `${label} must be a number like 12 or 2.5`;

function tooSmallMessage(label: string, rule: DecimalRule): string {
  if (rule.minExclusive) return `${label} must be greater than ${rule.min}`;
  return rule.min === 0 ? `${label} must be 0 or more` : `${label} must be at least ${rule.min}`;
}

/** The default message for each problem; callers whose texts the spec gives pass their own. */
export function decimalMessage(label: string, rule: DecimalRule, problem: DecimalProblem): string {
  switch (problem) {
    case 'blank':
      return `${label} is required`;
    case 'format':
      return formatMessage(label, rule);
    case 'too-small':
      return tooSmallMessage(label, rule);
    case 'too-precise':
      return rule.decimals === 0
        ? `${label} must be a whole number`
        : `${label} can have at most ${rule.decimals} decimal place${rule.decimals === 1 ? '' : 's'}`;
    case 'too-large':
      return `${label} must be at most ${rule.max}${rule.unit ? ` ${rule.unit}` : ''}`;
  }
}

/**
 * `raw` (a number, or text holding one) checked against `rule`. Problems are found in the
 * order a person fixes them: missing, not a number, out of range below, too many decimals,
 * out of range above. `messages` replaces the default text of any problem.
 */
export function parseDecimal(
  raw: unknown,
  label: string,
  rule: DecimalRule,
  messages: Partial<Record<DecimalProblem, string>> = {},
): DecimalResult {
  const read = readDecimal(raw);
  if (read === 'blank' || read === 'format') return failure(read, label, rule, messages);
  const { value, decimals } = read;
  if (rule.minExclusive ? value <= rule.min : value < rule.min) return failure('too-small', label, rule, messages);
  if (decimals > rule.decimals) return failure('too-precise', label, rule, messages);
  if (rule.max !== undefined && value > rule.max) return failure('too-large', label, rule, messages);
  return { ok: true, value };
}

function failure(
  problem: DecimalProblem,
  label: string,
  rule: DecimalRule,
  messages: Partial<Record<DecimalProblem, string>>,
): DecimalResult {
  return { ok: false, problem, message: messages[problem] ?? decimalMessage(label, rule, problem) };
}

/**
 * The rules of the parcel numbers the browser and several services share. Weights are pounds
 * and sizes inches, with two decimals at most: a label states weight in whole ounces, and two
 * decimals of a pound (0.01 lb ≈ 0.16 oz) are enough to name every ounce, so more is a slip.
 */
/** USPS's limits for any domestic parcel. */
export const PARCEL_LIMITS = {
  weightMaxLb: 70,
  sideMaxIn: 108,
} as const;

/** A SKU preset holds a package's worth; bulk orders are capped at 10,000 rows. */
const SKU_MAX_QTY = 10_000;

export const NUMBER_RULES = {
  /** A parcel's weight in pounds. The ceiling is the chosen service's maxWeight, which pricing enforces. */
  parcelWeightLb: { decimals: 2, min: 0, minExclusive: true },
  /** A parcel's side in inches; USPS takes no side over 108 in. */
  parcelDimensionIn: { decimals: 2, min: 0, minExclusive: true, max: PARCEL_LIMITS.sideMaxIn, unit: 'inches' },
  /** Items in one package. */
  quantity: { decimals: 0, min: 1 },
  /** A SKU preset describes one parcel: the same precision, with USPS's limits. */
  skuWeightLb: { decimals: 2, min: 0, minExclusive: true, max: PARCEL_LIMITS.weightMaxLb },
  skuDimensionIn: { decimals: 2, min: 0, minExclusive: true, max: PARCEL_LIMITS.sideMaxIn },
  skuMaxQty: { decimals: 0, min: 0, minExclusive: true, max: SKU_MAX_QTY },
} as const satisfies Record<string, DecimalRule>;
