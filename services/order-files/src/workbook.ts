import { type CellObject, read, type WorkBook, type WorkSheet } from '@e965/xlsx';
import { WORKBOOK_EXPORTERS } from '@flatship/proto';
import { isZip, toBytes } from './decode';
import { OrderFileError } from './errors';
import type { Grid } from './grid';
import { readSimpleWorkbook } from './simple-xlsx';

// Workbooks (.xlsx) as grids of text cells, for every marketplace whose export is one (Walmart, TikTok Shop): which
// sheet holds the orders is the caller's choice (`read-order-file.ts` asks the marketplaces' `detect`).

/**
 * Every cell as the text Excel shows, so ZIP codes and ids keep their leading zeros. The one
 * exception: Excel's General format shows long numbers such as a 15-digit order number as
 * 2.00012E+14, so whole numbers are written out in full instead.
 */
function cellText(cell: CellObject | undefined): string {
  if (!cell) return '';
  if (cell.t === 'e' || cell.t === 'z') return '';
  if (cell.t === 'n' && typeof cell.v === 'number') {
    if (Number.isSafeInteger(cell.v) && (cell.w === undefined || /e/i.test(cell.w))) return String(cell.v);
    return cell.w ?? String(cell.v);
  }
  if (cell.t === 's') return typeof cell.v === 'string' ? cell.v : (cell.w ?? '');
  return cell.w ?? (cell.v === undefined || cell.v === null ? '' : String(cell.v));
}

function sheetGrid(sheet: WorkSheet): Grid {
  const dense = sheet['!data'] as (CellObject | undefined)[][] | undefined;
  const grid: Grid = { rows: [], rowNumbers: [] };
  // Dense sheets hold only the rows that exist, however large the sheet's declared range.
  (dense ?? []).forEach((cells, r) => {
    if (!cells) return;
    const row: string[] = [];
    for (let c = 0; c < cells.length; c++) row.push(cellText(cells[c]));
    grid.rows.push(row);
    grid.rowNumbers.push(r + 1);
  });
  return grid;
}

/**
 * The order sheet's cells as text. The common shape (one sheet, text and General numbers) is read
 * by the fast reader of simple-xlsx.ts; every other workbook by SheetJS, which gives the same grid.
 */
export function readWorkbookGrid(data: Uint8Array | ArrayBuffer, chooseSheet: ChooseSheet = firstSheet): Grid {
  const bytes = toBytes(data);
  // SheetJS reads almost anything (CSV, HTML, plain text) as a sheet, so a workbook is recognised by its ZIP container.
  if (!isZip(bytes)) {
    throw new OrderFileError(
      `This file is not an Excel .xlsx workbook. Please upload the ${WORKBOOK_EXPORTERS} order export as .xlsx`,
    );
  }
  return readSimpleWorkbook(bytes) ?? readWorkbookGridWithSheetJs(bytes, chooseSheet);
}

/** The grid SheetJS makes of a workbook (a ZIP container), whatever its shape. */
export function readWorkbookGridWithSheetJs(bytes: Uint8Array, chooseSheet: ChooseSheet = firstSheet): Grid {
  let workbook: WorkBook;
  try {
    workbook = read(bytes, {
      type: 'array',
      cellText: true,
      raw: false,
      dense: true,
      cellDates: false,
      cellHTML: false,
    });
  } catch {
    throw new OrderFileError('This .xlsx file could not be read: it may be damaged or only partly downloaded');
  }
  const grids = workbook.SheetNames.map((name) => workbook.Sheets[name])
    .filter((s): s is WorkSheet => !!s)
    .map(sheetGrid);
  if (grids.length === 0) throw new OrderFileError('This .xlsx file has no sheets');
  return chooseSheet(grids);
}

/**
 * Which of a workbook's sheets holds the orders (the fast reader takes only one-sheet workbooks, so this runs only
 * for the others). The caller's marketplaces choose (`read-order-file.ts` asks each one's `detect`).
 */
export type ChooseSheet = (grids: readonly Grid[]) => Grid;

/** The first sheet: for callers that know their workbook's orders sit there. */
const firstSheet: ChooseSheet = (grids) => grids[0]!;
