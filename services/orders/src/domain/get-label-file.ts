import type { AuthContext } from '@flatship/kit';
import { AppError } from '@flatship/kit';
import { PRINT_FILES, type PrintFormat } from '@flatship/proto';
import { labelFileKey, PDF_NAME_PATTERN } from './files';
import { bufferFile, converterOf, fileNameIn, type LabelFormatDeps, labelZpl } from './label-formats';
import { MESSAGES } from './messages';
import type { LabelsRepo } from './ports';

export interface LabelFile {
  stream: NodeJS.ReadableStream;
  size: number;
  /** What the browser saves it as. */
  fileName: string;
  contentType: string;
}

/**
 * A label file for its owner or an admin, in `format` (the caller's print setting): the PDF as bought, the
 * label on a letter page, or ZPL. Every refusal, including someone else's existing file, is the same 404, so
 * a name reveals nothing. A label refunded since (void) is refused to them with a reason: the postage was
 * given back, so the label must not be printed and shipped with. Its file is kept as the record of what was
 * bought.
 */
export async function getLabelFile(
  deps: { labels: LabelsRepo } & LabelFormatDeps,
  auth: AuthContext,
  pdfName: string,
  format: PrintFormat = 'pdf-4x6',
): Promise<LabelFile> {
  const notFound = new AppError('FILE_NOT_FOUND', MESSAGES.fileNotFound);
  if (!PDF_NAME_PATTERN.test(pdfName)) throw notFound;
  const label = await deps.labels.findByPdfName(pdfName);
  if (!label || (label.userId !== auth.userId && auth.role !== 'admin')) throw notFound;
  if (label.status === 'void') throw new AppError('ORDERS_LABEL_VOID', MESSAGES.labelVoid);
  const named = {
    fileName: fileNameIn(format, `label-${label.trackingNumber ?? label.id}.pdf`),
    contentType: PRINT_FILES[format].contentType,
  };
  if (format === 'zpl-203') {
    const zpl = await labelZpl(deps, { userId: label.userId, pdfName });
    if (!zpl) throw notFound;
    return { ...bufferFile(zpl), ...named };
  }
  if (format === 'pdf-letter-2up') {
    const pdf = await deps.files.read(labelFileKey(label.userId, pdfName));
    if (!pdf) throw notFound;
    return { ...bufferFile(await converterOf(deps).letterTwoUp([pdf])), ...named };
  }
  const file = await deps.files.open(labelFileKey(label.userId, pdfName));
  if (!file) throw notFound;
  return { ...file, ...named };
}
