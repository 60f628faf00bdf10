/**
 * The one rule for text the product writes into a CSV or TSV a user opens in a spreadsheet
 * (results CSV, Amazon confirmation TSV, bulk template, rows written back as a template).
 * Buyer-typed text reaches those files, and Excel, LibreOffice and Google Sheets run a cell
 * that starts with `=`, `+`, `-` or `@` as a formula, and some skip a leading tab or carriage
 * return before looking, or fold look-alikes (`＝`, `＋`) to these and skip invisible characters first. Following OWASP's CSV-injection advice a cell starting with any of
 * these gets a single quote in front, which spreadsheets take as "this is text".
 *
 * `-` and `+` also start ordinary numbers, which must stay numbers: a cell that is exactly a
 * plain decimal number (`-5`, `-0.25`, `+3`, `.5`) cannot call anything and is left as it
 * is. Everything else starting with them (`-2+3`, `+1 555-0100`, `-1e5`) is written as text.
 *
 * A value that already starts with quotes before one of those characters (`'=x`) gets one
 * more quote, so `restoreCell` (one quote off) gives back exactly what was written, whatever it
 * was. Dependency-free so the browser can import it without the file readers.
 */

/**
 * What a spreadsheet may read as a formula's first character: the ASCII ones, and their fullwidth and small forms
 * (＝ ＋ － ＠, ﹦ ﹢ ﹣ ﹫), which a spreadsheet may fold to ASCII (NFKC) before looking, after any invisible characters
 * it may skip (zero-width space, joiners, word joiner, byte-order mark).
 */
const FORMULA_START = /^[\u200B-\u200D\u2060\uFEFF]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B]/;
const QUOTED_FORMULA_START =
  /^'+[\u200B-\u200D\u2060\uFEFF]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B]/;
const PLAIN_NUMBER = /^[-+]?(?:\d+(?:\.\d+)?|\.\d+)$/;

/** `value` as a spreadsheet cell that shows it as text and never runs it. */
export function neutralizeCell(value: string): string {
  if (QUOTED_FORMULA_START.test(value)) return `'${value}`;
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * Undoes `neutralizeCell` for a cell read from a file: one quote off a cell whose quotes stand
 * before a formula character. Other quotes (`'hello`, `O'Brien`) are the user's and stay.
 */
export const restoreCell = (cell: string): string => (QUOTED_FORMULA_START.test(cell) ? cell.slice(1) : cell);
