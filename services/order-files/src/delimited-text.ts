import { neutralizeCell } from './spreadsheet-cell';

const needsQuotes = (cell: string, delimiter: string) =>
  cell.includes(delimiter) || cell.includes('"') || cell.includes('\n') || cell.includes('\r');

/**
 * Rows as delimited text (CSV or TSV), each cell through `neutralizeCell` so a spreadsheet opening the file runs
 * nothing, quoted only when it holds the delimiter, a quote or a line break; lines end with `\n`.
 */
export function delimitedText(rows: readonly (readonly (string | number)[])[], delimiter: ',' | '\t'): Uint8Array {
  const lines = rows.map((row) =>
    row
      .map((value) => {
        const cell = neutralizeCell(String(value));
        return needsQuotes(cell, delimiter) ? `"${cell.replaceAll('"', '""')}"` : cell;
      })
      .join(delimiter),
  );
  return new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
}
