import { AppError, type AuthContext } from '@flatship/kit';
import { isPrintFormat, type PrintFormat } from '@flatship/proto';
import { Type } from 'typebox';
import { type PrintSettingsRepo, printFormatOf } from '../domain/print-settings';

/** A download link may name its format (`?format=zpl-203`); without one it is the caller's print setting. */
export const DownloadFormatQuerySchema = Type.Object({
  // Checked by the download-token hook before validation; declared so it is left as it came.
  token: Type.Optional(Type.Unknown()),
  format: Type.Optional(Type.String()),
});

export async function downloadFormatOf(
  deps: { printSettings: PrintSettingsRepo },
  auth: AuthContext,
  query: { format?: string },
): Promise<PrintFormat> {
  if (query.format === undefined) return printFormatOf(deps, auth.userId);
  if (!isPrintFormat(query.format)) {
    throw new AppError('VALIDATION_FAILED', 'format must be one of pdf-4x6, pdf-letter-2up or zpl-203');
  }
  return query.format;
}
