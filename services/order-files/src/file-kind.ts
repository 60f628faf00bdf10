/**
 * The order files the bulk screen takes, judged by how the name ends, in any case (spec doc 2
 * §5). Browser-safe and free of the file readers, so the page checks a pick before the worker
 * with the spreadsheet library is loaded.
 */
export const ORDER_FILE_EXTENSIONS = ['.csv', '.txt', '.xlsx'] as const;
export type OrderFileKind = 'csv' | 'txt' | 'xlsx';

export const UNSUPPORTED_FILE_MESSAGE =
  'Unsupported file type. Please upload a .csv, Amazon .txt or Walmart .xlsx file';

export function orderFileKind(name: string): OrderFileKind | null {
  const lower = name.trim().toLowerCase();
  const ext = ORDER_FILE_EXTENSIONS.find((e) => lower.endsWith(e));
  return ext ? (ext.slice(1) as OrderFileKind) : null;
}
