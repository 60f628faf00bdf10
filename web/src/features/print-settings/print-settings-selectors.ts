import { DEFAULT_PRINT_FORMAT, type PrintFormat } from '@flatship/proto';
import type { RootState } from '../../app/store';

export const selectPrintSettings = (state: RootState) => state.printSettings;
/** The format label downloads come in: the saved setting, or 4x6 PDF while it is not known. */
export const selectPrintFormat = (state: RootState): PrintFormat =>
  state.printSettings?.labelFormat ?? DEFAULT_PRINT_FORMAT;

/** What a download button calls the merged labels file in each format. */
export const LABELS_FILE_WORDS: Record<PrintFormat, string> = {
  'pdf-4x6': 'PDF',
  'pdf-letter-2up': 'PDF (Letter)',
  'zpl-203': 'ZPL',
};
