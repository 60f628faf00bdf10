import { Readable } from 'node:stream';
import { letterTwoUp, pdfToZpl } from '@flatship/carriers';
import { AppError } from '@flatship/kit';
import { PRINT_FILES, type PrintFormat } from '@flatship/proto';
import { labelFileKey } from './files';
import type { CarrierLabelRequest, CarrierPort, FileStore } from './ports';
import type { PrintSettingsRepo } from './print-settings';

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
}

export const converterOf = (deps: LabelFormatDeps): LabelConverter => deps.converter ?? labelConverter;

/** Where the ZPL of a label whose PDF is `pdfName` is kept. */
export const zplFileKey = (userId: string, pdfName: string) => labelFileKey(userId, pdfName.replace(/\.pdf$/, '.zpl'));

/** A file made in memory, in the shape the download routes send. */
export const bufferFile = (data: Buffer) => ({ stream: Readable.from([data]), size: data.length });

/** `name.pdf` as the format's file name. */
export const fileNameIn = (format: PrintFormat, name: string) =>
  `${name.replace(/\.pdf$/i, '')}.${PRINT_FILES[format].extension}`;

export const ZPL_CONVERSION_FAILED =
  'This label could not be converted to ZPL right now. Download it as a 4x6 PDF (Account, Printing) or try again later.';

/** The label's ZPL: the carrier's, or its PDF converted (and kept); null when its PDF is not in the store. */
export async function labelZpl(
  deps: LabelFormatDeps,
  label: { userId: string; pdfName: string },
): Promise<Buffer | null> {
  const key = zplFileKey(label.userId, label.pdfName);
  const kept = await deps.files.read(key);
  if (kept) return kept;
  const pdf = await deps.files.read(labelFileKey(label.userId, label.pdfName));
  if (!pdf) return null;
  let zpl: Buffer;
  try {
    zpl = await converterOf(deps).pdfToZpl(pdf);
  } catch (e) {
    // The converter runs poppler's pdftoppm; without it (or when it fails) the customer is told what to do, and
    // the cause goes with the error to the service's log.
    throw Object.assign(new AppError('SERVICE_UNAVAILABLE', ZPL_CONVERSION_FAILED), { cause: e });
  }
  await deps.files.put(key, zpl);
  return zpl;
}

/** The ZPL of many labels, in the order given (a few conversions at a time); null for any not in the store. */
export async function labelZpls(
  deps: LabelFormatDeps,
  labels: { userId: string; pdfName: string }[],
): Promise<(Buffer | null)[]> {
  const out: (Buffer | null)[] = new Array(labels.length).fill(null);
  let next = 0;
  // Reads are cheap and conversions are a process each: enough at once to keep two cores busy, no more.
  const worker = async () => {
    for (let i = next++; i < labels.length; i = next++) out[i] = await labelZpl(deps, labels[i] as (typeof labels)[0]);
  };
  await Promise.all(Array.from({ length: Math.min(4, labels.length) }, worker));
  return out;
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
