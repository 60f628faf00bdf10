import { AppError, type AuthContext } from '@flatship/kit';
import {
  type BulkFilesReply,
  type BulkFileType,
  marketplaceInfo,
  noConfirmationFileNote,
  PRINT_FILES,
  type PrintFormat,
} from '@flatship/proto';
import { bufferFile, converterOf, fileNameIn, type LabelFormatDeps, mergedZpl } from '../label-formats';
import type { FileStore } from '../ports';
import { visibleOrder } from './access';
import { type BulkStoredFile, bulkFileKey, confirmationFileOf, confirmationFormat } from './bulk-files';
import { BULK_MESSAGES } from './bulk-messages';
import { fileDataOf } from './bulk-view';
import type { BulkOrderRecord, BulkRepo } from './ports';

interface FileSpec {
  file(o: BulkOrderRecord): BulkStoredFile;
  contentType(o: BulkOrderRecord): string;
  name(o: BulkOrderRecord): string | null;
}

/** `auto-csv` is the confirmation file of the order's marketplace, saved and served as that marketplace says. */
const FILES: Record<BulkFileType, FileSpec> = {
  pdf: { file: () => 'labels.pdf', contentType: () => 'application/pdf', name: (o) => o.pdfName },
  'result-csv': {
    file: () => 'results.csv',
    contentType: () => 'text/csv; charset=utf-8',
    name: (o) => o.resultCsvName,
  },
  'auto-csv': {
    file: (o) => confirmationFileOf(o.source),
    contentType: (o) => confirmationFormat(o.source).contentType,
    name: (o) => o.autoConfirmName,
  },
};

const STILL_WORKING = new Set(['processing', 'generating_files', 'retrying_failed']);
/**
 * Whose files may be a mix of two generations, or hold a label refunded since: an order writing its files,
 * or whose writing them failed (recovery_failed). Their files are not handed out until they are whole again.
 */
const FILES_IN_FLUX = new Set(['generating_files', 'recovery_failed']);

async function exists(files: FileStore, key: string): Promise<boolean> {
  const opened = await files.open(key);
  (opened?.stream as (NodeJS.ReadableStream & { destroy?: () => void }) | undefined)?.destroy?.();
  return opened !== null;
}

/** GET /api/orders/bulk/files/{orderId}: which files exist now. */
export async function bulkFileAvailability(
  deps: { bulk: BulkRepo; files: FileStore },
  auth: AuthContext,
  orderId: string,
): Promise<BulkFilesReply> {
  const o = await visibleOrder(deps, auth, orderId);
  const has = async (type: BulkFileType) =>
    !FILES_IN_FLUX.has(o.status) &&
    FILES[type].name(o) !== null &&
    (await exists(deps.files, bulkFileKey(o.userId, o.id, FILES[type].file(o))));
  return {
    pdf: await has('pdf'),
    resultCSV: await has('result-csv'),
    autoConfirm: await has('auto-csv'),
    fileData: fileDataOf(o) ?? { pdfName: null, resultCSVName: null, autoConfirmCSVName: null },
  };
}

/** A file to send (its size unknown when it is made as it is sent), or why not yet. */
export type BulkDownload =
  | { ready: true; stream: NodeJS.ReadableStream; size?: number; fileName: string; contentType: string }
  | { ready: false; message: string; preparing?: { done: number; total: number } };

/**
 * One of an order's files. Not generated yet while the order is still working
 * → not ready (202); never generated, or gone → FILE_NOT_FOUND. While the
 * order is generating its files, those of an earlier generation are not handed
 * out either (202): after an admin refunded one of its labels, they still hold
 * that label. After generating them failed (recovery_failed) they may be half
 * old, half new: FILE_NOT_FOUND, until Force Recovery writes them whole.
 */
export async function getBulkFile(
  deps: { bulk: BulkRepo } & LabelFormatDeps,
  auth: AuthContext,
  type: BulkFileType,
  orderId: string,
  format: PrintFormat = 'pdf-4x6',
): Promise<BulkDownload> {
  let o: BulkOrderRecord;
  try {
    o = await visibleOrder(deps, auth, orderId);
  } catch {
    throw new AppError('FILE_NOT_FOUND', BULK_MESSAGES.fileNotFound);
  }
  // A marketplace that takes no tracking file never has one: said as it is, whatever the order's state.
  if (type === 'auto-csv' && !marketplaceInfo(o.source).confirmationFile) {
    throw new AppError('FILE_NOT_FOUND', noConfirmationFileNote(o.source) ?? BULK_MESSAGES.fileNotFound);
  }
  if (o.status === 'generating_files') return { ready: false, message: BULK_MESSAGES.fileNotReady };
  if (o.status === 'recovery_failed') throw new AppError('FILE_NOT_FOUND', BULK_MESSAGES.fileNotFound);
  const spec = FILES[type];
  const name = spec.name(o);
  if (!name) {
    if (STILL_WORKING.has(o.status)) return { ready: false, message: BULK_MESSAGES.fileNotReady };
    throw new AppError('FILE_NOT_FOUND', BULK_MESSAGES.fileNotFound);
  }
  const file = await deps.files.open(bulkFileKey(o.userId, o.id, spec.file(o)));
  if (!file) {
    if (STILL_WORKING.has(o.status)) return { ready: false, message: BULK_MESSAGES.fileNotReady };
    throw new AppError('FILE_NOT_FOUND', BULK_MESSAGES.fileNotFound);
  }
  if (type === 'pdf' && format !== 'pdf-4x6') {
    (file.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    return mergedLabelsIn(deps, auth, o, format);
  }
  return { ready: true, ...file, fileName: name, contentType: spec.contentType(o) };
}

/**
 * The order's merged labels in another format, made from the files as they are now: its valid labels (bought,
 * not refunded) in row order, as the merged PDF has them. ZPL is every label's ZPL one after the other (one
 * `^XA…^XZ` each), streamed once every label has its ZPL in the store; until then it is being prepared in the
 * background, and the answer says how far it got. A letter file is the merged PDF two labels to a page.
 */
async function mergedLabelsIn(
  deps: { bulk: BulkRepo } & LabelFormatDeps,
  auth: AuthContext,
  o: BulkOrderRecord,
  format: Exclude<PrintFormat, 'pdf-4x6'>,
): Promise<BulkDownload> {
  const named = {
    fileName: fileNameIn(format, o.pdfName ?? 'labels.pdf'),
    contentType: PRINT_FILES[format].contentType,
  };
  const missing = () => new AppError('FILE_NOT_FOUND', BULK_MESSAGES.fileNotFound);
  if (format === 'pdf-letter-2up') {
    const merged = await deps.files.read(bulkFileKey(o.userId, o.id, 'labels.pdf'));
    if (!merged) throw missing();
    return { ready: true, ...bufferFile(await converterOf(deps).letterTwoUp([merged])), ...named };
  }
  const done = (await deps.bulk.rows(o.id)).filter((r) => r.status === 'completed' && r.pdfName);
  const zpl = await mergedZpl(deps, {
    // Which labels it holds is read again at each request: one refunded meanwhile is simply left out. Its labels'
    // ZPL is kept in the store; the merged file never is.
    fileKey: `zpl:${o.id}`,
    requestedBy: auth.userId,
    labels: done.map((r) => ({ userId: r.userId, pdfName: r.pdfName as string })),
    missing,
  });
  if (!zpl.ready) {
    return {
      ready: false,
      message: BULK_MESSAGES.zplPreparing(zpl.done, zpl.total),
      preparing: { done: zpl.done, total: zpl.total },
    };
  }
  return { ready: true, stream: zpl.stream, ...named };
}
