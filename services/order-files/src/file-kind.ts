import { ORDER_FILE_EXTENSIONS, ORDER_FILES_CHOICE } from '@flatship/proto';

/**
 * The order files the bulk screen takes, judged by how the name ends, in any case (spec doc 2
 * §5): the endings of the marketplaces in proto's list. Browser-safe and free of the file readers,
 * so the page checks a pick before the worker with the spreadsheet library is loaded.
 */
export { ORDER_FILE_EXTENSIONS };

/** How a file is decoded into cells: a workbook (.xlsx), tab-separated text (.txt) or CSV. */
export type OrderFileKind = 'csv' | 'txt' | 'xlsx';

export const UNSUPPORTED_FILE_MESSAGE = `Unsupported file type. Please upload ${ORDER_FILES_CHOICE}`;

export function orderFileKind(name: string): OrderFileKind | null {
  const lower = name.trim().toLowerCase();
  const ext = ORDER_FILE_EXTENSIONS.find((e) => lower.endsWith(e));
  return ext ? (ext.slice(1) as OrderFileKind) : null;
}
