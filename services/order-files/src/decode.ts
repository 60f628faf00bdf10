import { ORDER_FILES_CHOICE } from '@flatship/proto';
import { OrderFileError } from './errors';

export function toBytes(data: Uint8Array | ArrayBuffer): Uint8Array {
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

const startsWith = (bytes: Uint8Array, ...prefix: number[]): boolean => prefix.every((b, i) => bytes[i] === b);

export const isZip = (bytes: Uint8Array): boolean => startsWith(bytes, 0x50, 0x4b, 0x03, 0x04);
const isOldExcel = (bytes: Uint8Array): boolean => startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0);

/**
 * Text files arrive as UTF-8 (with or without BOM), as Windows-1252 from older Excel and
 * Seller Central downloads, or as UTF-16 when Excel saves "Unicode Text". UTF-8 is tried
 * strictly first: Windows-1252 text with accents is never valid UTF-8, and plain ASCII
 * reads the same either way. The BOM is dropped by the decoder.
 */
export function decodeText(data: Uint8Array | ArrayBuffer, kind: string): string {
  const bytes = toBytes(data);
  if (isZip(bytes) || isOldExcel(bytes)) {
    throw new OrderFileError(
      `This file is an Excel workbook, not a ${kind} file. Save it as ${kind === '.csv' ? 'CSV' : 'tab-delimited text'}, or upload a Walmart order sheet as .xlsx`,
    );
  }
  let text: string;
  if (startsWith(bytes, 0xff, 0xfe)) text = new TextDecoder('utf-16le').decode(bytes);
  else if (startsWith(bytes, 0xfe, 0xff)) text = new TextDecoder('utf-16be').decode(bytes);
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder('windows-1252').decode(bytes);
    }
  }
  if (looksBinary(text)) {
    throw new OrderFileError(`This file is not a ${kind} text file. Please upload ${ORDER_FILES_CHOICE}`);
  }
  return text;
}

// Text files hold tabs and line breaks, never NULs and rarely other control characters.
function looksBinary(text: string): boolean {
  const sample = text.slice(0, 65536);
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0) return true;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13) control++;
  }
  return control > sample.length / 100;
}
