import { Readable } from 'node:stream';
import { letterTwoUp, pdfToZpl } from '@flatship/carriers';
import { AppError } from '@flatship/kit';
import { PRINT_FILES, type PrintFormat } from '@flatship/proto';
import { labelFileKey } from './files';
import type { CarrierLabelRequest, CarrierPort, FileStore } from './ports';
import type { PrintSettingsRepo } from './print-settings';
import { type Preparation, sharedZplWork, type ZplWork } from './zpl-work';

/**
 * Label files in the format of the print setting. What a carrier sold is kept as it came: the 4x6 PDF always,
 * and its ZPL (`<name>.zpl` beside `<name>.pdf`) when it was asked for at purchase. Any other format is made
 * when downloaded, from those files: a letter page is two of the PDFs placed on it; ZPL a carrier did not give
 * (it cannot, or the label was bought before the setting changed) is the PDF rasterised at 203 dpi, kept after
 * the first time. A label's files never change, so whoever converts it first writes the same bytes.
 */
export interface LabelConverter {
  pdfToZpl(pdf: Buffer): Promise<Buffer>;
  letterTwoUp(pdfs: Buffer[]): Promise<Buffer>;
}

export const labelConverter: LabelConverter = { pdfToZpl: (pdf) => pdfToZpl(pdf), letterTwoUp };

export interface LabelFormatDeps {
  files: FileStore;
  converter?: LabelConverter;
  /** The process's ZPL conversions (shared, bounded); the process-wide one when absent. */
  zplWork?: ZplWork;
}

export const converterOf = (deps: LabelFormatDeps): LabelConverter => deps.converter ?? labelConverter;
const zplWorkOf = (deps: LabelFormatDeps): ZplWork => deps.zplWork ?? sharedZplWork();

/** Where the ZPL of a label whose PDF is `pdfName` is kept. */
export const zplFileKey = (userId: string, pdfName: string) => labelFileKey(userId, pdfName.replace(/\.pdf$/, '.zpl'));

/** A file made in memory, in the shape the download routes send. */
export const bufferFile = (data: Buffer) => ({ stream: Readable.from([data]), size: data.length });

/** `name.pdf` as the format's file name. */
export const fileNameIn = (format: PrintFormat, name: string) =>
  `${name.replace(/\.pdf$/i, '')}.${PRINT_FILES[format].extension}`;

export const ZPL_CONVERSION_FAILED =
  'This label could not be converted to ZPL right now. Download it as a 4x6 PDF (Account, Printing) or try again later.';

/**
 * The label's ZPL: the carrier's, or its PDF converted (and kept); null when its PDF is not in the store. Callers
 * asking for the same label at once share one conversion, and conversions wait for one of the process's slots.
 */
export async function labelZpl(
  deps: LabelFormatDeps,
  label: { userId: string; pdfName: string },
): Promise<Buffer | null> {
  const key = zplFileKey(label.userId, label.pdfName);
  const kept = await deps.files.read(key);
  if (kept) return kept;
  const work = zplWorkOf(deps);
  return work.once(key, async () => {
    const pdf = await deps.files.read(labelFileKey(label.userId, label.pdfName));
    if (!pdf) return null;
    const zpl = await work.slot(async () => {
      // Whoever held the slot before may have written it meanwhile.
      const written = await deps.files.read(key);
      if (written) return { zpl: written, new: false };
      try {
        return { zpl: await converterOf(deps).pdfToZpl(pdf), new: true };
      } catch (e) {
        // The converter runs poppler's pdftoppm; without it (or when it fails) the customer is told what to do,
        // and the cause goes with the error to the service's log.
        throw Object.assign(new AppError('SERVICE_UNAVAILABLE', ZPL_CONVERSION_FAILED), { cause: e });
      }
    });
    if (zpl.new) await deps.files.put(key, zpl.zpl);
    return zpl.zpl;
  });
}

async function exists(files: FileStore, key: string): Promise<boolean> {
  const opened = await files.open(key);
  (opened?.stream as (NodeJS.ReadableStream & { destroy?: () => void }) | undefined)?.destroy?.();
  return opened !== null;
}

const NEWLINE = Buffer.from('\n');

/**
 * Labels' ZPL one after the other, read from the store one label at a time as the answer is sent; each label ends
 * its own line, so the next ^XA starts on a line of its own whatever the carrier sent.
 */
function zplStream(
  files: FileStore,
  labels: { userId: string; pdfName: string }[],
  missing: () => Error,
): NodeJS.ReadableStream {
  return Readable.from(
    (async function* () {
      for (const label of labels) {
        const zpl = await files.read(zplFileKey(label.userId, label.pdfName));
        if (!zpl) throw missing();
        yield zpl;
        if (zpl.at(-1) !== 0x0a) yield NEWLINE;
      }
    })(),
  );
}

export type MergedZpl = { ready: true; stream: NodeJS.ReadableStream } | { ready: false; done: number; total: number };

export const ZPL_BUSY =
  'A ZPL file of another order is still being prepared for you. Download this one when it is ready.';

/**
 * The ZPL of many labels as one file (`fileKey` names it), in the order given. When every label's ZPL is in the
 * store it is streamed from there. Otherwise the missing ones are converted in the background, once however many
 * ask, and whoever asks meanwhile hears how many of the labels are done. One such preparation runs per user
 * (`requestedBy`): asking for another file meanwhile is refused (429) until it is done. A preparation that failed
 * is told to the next request, and the one after starts afresh.
 */
export async function mergedZpl(
  deps: LabelFormatDeps,
  opts: { fileKey: string; requestedBy: string; labels: { userId: string; pdfName: string }[]; missing: () => Error },
): Promise<MergedZpl> {
  const work = zplWorkOf(deps);
  const { fileKey, requestedBy, labels } = opts;
  const current = work.preparing.get(fileKey);
  if (current) return { ready: false, done: current.done, total: current.total };
  const failure = work.failed.get(fileKey);
  if (failure !== undefined) {
    work.failed.delete(fileKey);
    throw failure;
  }
  const present = await Promise.all(labels.map((l) => exists(deps.files, zplFileKey(l.userId, l.pdfName))));
  const todo = labels.filter((_, i) => !present[i]);
  if (todo.length === 0) return { ready: true, stream: zplStream(deps.files, labels, opts.missing) };
  const busy = work.byUser.get(requestedBy);
  if (busy !== undefined && busy !== fileKey) throw new AppError('RATE_LIMITED', ZPL_BUSY);

  const preparation = { done: labels.length - todo.length, total: labels.length } as Preparation;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < todo.length; i = next++) {
      if ((await labelZpl(deps, todo[i] as (typeof todo)[0])) === null) throw opts.missing();
      preparation.done++;
    }
  };
  preparation.finished = Promise.all(Array.from({ length: Math.min(work.limit, todo.length) }, worker))
    .then(
      () => undefined,
      (err: unknown) => {
        // Stops the workers still going: the file cannot be whole, and the next request hears why.
        next = todo.length;
        work.failed.set(fileKey, err);
      },
    )
    .finally(() => {
      work.preparing.delete(fileKey);
      if (work.byUser.get(requestedBy) === fileKey) work.byUser.delete(requestedBy);
    });
  work.preparing.set(fileKey, preparation);
  work.byUser.set(requestedBy, fileKey);
  return { ready: false, done: preparation.done, total: preparation.total };
}

export interface PurchaseFormatDeps {
  carrier: CarrierPort;
  printSettings?: PrintSettingsRepo;
}

/**
 * The formats to ask the carrier for: its ZPL as well when the buyer prints ZPL and the carrier can give it
 * (the carrier's own ZPL prints sharper than a converted PDF); otherwise the PDF alone.
 */
export async function purchaseFormatsFor(
  deps: PurchaseFormatDeps,
  userId: string,
): Promise<Pick<CarrierLabelRequest, 'formats'>> {
  if (!deps.printSettings || !deps.carrier.capabilities?.includes('zpl')) return {};
  const format = await deps.printSettings.find(userId);
  return format === 'zpl-203' ? { formats: ['pdf-4x6', 'zpl-203'] } : {};
}

/** Keeps the ZPL a carrier gave with a label, beside its PDF. */
export async function keepCarrierZpl(
  files: FileStore,
  label: { userId: string; pdfName: string },
  zpl: Buffer | undefined,
): Promise<void> {
  if (zpl) await files.put(zplFileKey(label.userId, label.pdfName), zpl);
}
