import type { AuthContext } from '@flatship/kit';
import { AppError } from '@flatship/kit';
import { labelFileKey, PDF_NAME_PATTERN } from './files';
import { MESSAGES } from './messages';
import type { FileStore, LabelsRepo } from './ports';

export interface LabelFile {
  stream: NodeJS.ReadableStream;
  size: number;
  /** What the browser saves it as. */
  fileName: string;
}

/**
 * A label PDF for its owner or an admin. Every refusal, including someone
 * else's existing file, is the same 404, so a name reveals nothing. A label
 * refunded since (void) is refused to them with a reason: the postage was
 * given back, so the label must not be printed and shipped with. Its file is
 * kept as the record of what was bought.
 */
export async function getLabelFile(
  deps: { labels: LabelsRepo; files: FileStore },
  auth: AuthContext,
  pdfName: string,
): Promise<LabelFile> {
  const notFound = new AppError('FILE_NOT_FOUND', MESSAGES.fileNotFound);
  if (!PDF_NAME_PATTERN.test(pdfName)) throw notFound;
  const label = await deps.labels.findByPdfName(pdfName);
  if (!label || (label.userId !== auth.userId && auth.role !== 'admin')) throw notFound;
  if (label.status === 'void') throw new AppError('ORDERS_LABEL_VOID', MESSAGES.labelVoid);
  const file = await deps.files.open(labelFileKey(label.userId, pdfName));
  if (!file) throw notFound;
  return { ...file, fileName: `label-${label.trackingNumber ?? label.id}.pdf` };
}
