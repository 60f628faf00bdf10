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
 * else's existing file, is the same 404, so a name reveals nothing.
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
  const file = await deps.files.open(labelFileKey(label.userId, pdfName));
  if (!file) throw notFound;
  return { ...file, fileName: `label-${label.trackingNumber ?? label.id}.pdf` };
}
