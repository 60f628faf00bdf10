import { PHONE_PATTERN, readDecimal } from '@flatship/proto';

/**
 * Rules of the editable table (spec doc 1 §5, doc 2 §5 "Table inline edit").
 * Kept free of React so screens (the bulk order check, for one) can reuse them.
 */

export type EditableType = 'text' | 'number' | 'phone' | 'select';

export interface SelectOption {
  value: string;
  label: string;
}

/** What a column says about how its cells are edited and checked. */
export interface EditRule {
  type?: EditableType;
  required?: boolean;
  /**
   * Bounds of a number column, themselves outside, as the spec's texts say: 'must be greater than {min}',
   * 'must be less than {max}'. The editor's spinner takes them as its own bounds.
   */
  min?: number;
  max?: number;
  /**
   * The column's own rule for a value that is not blank (the trimmed text), as the message the user sees, or null;
   * used instead of the number check and the bounds, so a screen can run exactly what its server runs.
   */
  check?: (value: string) => string | null;
  /** Step of a number column's spinner (e.g. 0.1, or 1 for whole numbers); with it the editor is a number input. */
  step?: number;
  options?: readonly SelectOption[];
}

/** The first rule `raw` breaks, as the message the user sees, or null. `header` names the column. */
export function validateCell(raw: string, header: string, rule: EditRule): string | null {
  const value = raw.trim();
  if (value === '') return rule.required ? `${header} is required` : null;
  if (rule.check) return rule.check(value);
  switch (rule.type) {
    case 'number': {
      // Plain decimals only (the server's parser): Number() would read '0x10' as 16 and '1e3' as 1000.
      const read = readDecimal(value);
      if (typeof read !== 'object') return `${header} must be a number`;
      const number = read.value;
      if (rule.min !== undefined && number <= rule.min) return `${header} must be greater than ${rule.min}`;
      if (rule.max !== undefined && number >= rule.max) return `${header} must be less than ${rule.max}`;
      return null;
    }
    case 'phone':
      return PHONE_PATTERN.test(value) ? null : 'Invalid phone number';
    default:
      return null;
  }
}

/**
 * The value a cell's draft text stands for: numbers for number columns (null when blank; text
 * that is not a plain decimal stays text, for the server to name), trimmed text otherwise.
 */
export function parseCell(raw: string, type: EditableType | undefined): string | number | null {
  const value = raw.trim();
  if (type !== 'number') return value;
  const read = readDecimal(value);
  return read === 'blank' ? null : read === 'format' ? value : read.value;
}

/**
 * Every row with `targetKey` set to its own `sourceKey` value ("Copy from:").
 * One pass and one new array, so a screen holding thousands of rows can run it
 * in a single reducer step.
 */
export function copyColumnValues<T extends object>(rows: readonly T[], targetKey: string, sourceKey: string): T[] {
  return rows.map((row) => ({ ...row, [targetKey]: (row as Record<string, unknown>)[sourceKey] }));
}
