import { utils, write } from '@e965/xlsx';
import { neutralizeCell } from './spreadsheet-cell';

/** One worksheet of a written workbook: its name and its rows of cells. */
export interface XlsxSheet {
  name: string;
  rows: readonly (readonly (string | number)[])[];
}

/**
 * A workbook (.xlsx) of the given sheets, for a marketplace's tracking upload. Text cells go through
 * `neutralizeCell` like every file the product writes, and are stored as text, so a 22-digit tracking number or
 * an id with leading zeros stays as written; numbers (quantities) stay numbers.
 */
export function xlsxFile(sheets: readonly XlsxSheet[]): Uint8Array {
  const book = utils.book_new();
  for (const sheet of sheets) {
    const rows = sheet.rows.map((row) => row.map((cell) => (typeof cell === 'number' ? cell : neutralizeCell(cell))));
    const ws = utils.aoa_to_sheet(rows);
    utils.book_append_sheet(book, ws, sheet.name);
  }
  return new Uint8Array(write(book, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer);
}
