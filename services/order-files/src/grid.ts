import { readDecimal } from '@flatship/proto';

/** A file as rows of text cells, each with the row number the user sees in their editor or spreadsheet. */
export interface Grid {
  rows: string[][];
  /** 1-based row (line) number of each entry of `rows` in the file. */
  rowNumbers: number[];
}

/** Headers match ignoring case, spaces, underscores and punctuation: 'Ship to Address 1' = 'ship_to_address1', 'PO#' = 'po'. */
export const headerKey = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Column index of the first header matching any of `names` (compared by headerKey), or -1. */
export function columnOf(headerKeys: string[], names: readonly string[]): number {
  for (const name of names) {
    const index = headerKeys.indexOf(headerKey(name));
    if (index >= 0) return index;
  }
  return -1;
}

/** Each column's index in the header (-1 when absent), found by the names it may go by (the first is its name). */
export function columnsIn<K extends string>(
  headerKeys: string[],
  columns: Record<K, readonly string[]>,
): Record<K, number> {
  return Object.fromEntries(
    (Object.entries(columns) as [K, readonly string[]][]).map(([k, names]) => [k, columnOf(headerKeys, names)]),
  ) as Record<K, number>;
}

/** The names of the `required` columns the header lacks (see `columnsIn`). */
export function missingColumns<K extends string>(
  col: Record<K, number>,
  columns: Record<K, readonly string[]>,
  required: readonly K[],
): string[] {
  return required.filter((k) => col[k] < 0).map((k) => columns[k][0] ?? k);
}

export const cellAt = (row: string[], index: number): string => (index >= 0 ? (row[index] ?? '').trim() : '');

export const isBlankRow = (row: string[]): boolean => row.every((cell) => cell.trim() === '');

export function missingColumnsMessage(names: string[]): string {
  return names.length === 1 ? `Missing column: ${names[0]}` : `Missing columns: ${names.join(', ')}`;
}

/** Blank is the default quantity 1 (spec doc 2 §9); anything but a whole number ≥ 1 is refused by the caller. */
export function parseQuantity(cell: string): number | null {
  const read = readDecimal(cell);
  if (read === 'blank') return 1;
  // Plain decimals only (no '0x4' or '4e0'); '4.0' is how some spreadsheets write 4, still a whole number.
  return typeof read === 'object' && Number.isInteger(read.value) && read.value >= 1 ? read.value : null;
}
