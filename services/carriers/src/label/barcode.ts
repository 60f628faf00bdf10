import bwipjs from 'bwip-js/node';
import { zip5 } from './format';

/** A linear barcode as module widths: bar, space, bar, … (in modules), with `quietZone` modules on each side. */
export interface LinearBarcode {
  widths: number[];
  quietZone: number;
}

/**
 * The IMpb as GS1-128: AI 420 with the destination ZIP, then the 22-digit tracking number. The tracking number's
 * own first two digits (92–95) sit in the GS1 company-internal AI range, so '(420)12345(92)…' is the standard form;
 * AI 420 is variable length, so bwip-js inserts the FNC1 separator after the ZIP. Only the encoding is asked of
 * bwip-js; the label draws the bars itself, which costs a fraction of drawing them through SVG.
 */
export function impbBarcode(trackingNumber: string, destinationZip: string): LinearBarcode {
  const text = `(420)${zip5(destinationZip)}(${trackingNumber.slice(0, 2)})${trackingNumber.slice(2)}`;
  const [encoded] = bwipjs.raw('gs1-128', text);
  if (!(encoded && 'sbs' in encoded && encoded.sbs.length > 0)) {
    throw new Error(`no barcode could be encoded for ${text}`);
  }
  return { widths: encoded.sbs, quietZone: 10 };
}
