import bwipjs from 'bwip-js/node';
import { zip5 } from './format';

/**
 * The IMpb as a GS1-128 SVG: AI 420 with the destination ZIP, then the 22-digit tracking number. The tracking number's
 * own first two digits (92–95) sit in the GS1 company-internal AI range, so '(420)12345(92)…' is the standard form;
 * AI 420 is variable length, so bwip-js inserts the FNC1 separator after the ZIP.
 */
export function impbBarcodeSvg(trackingNumber: string, destinationZip: string): string {
  const text = `(420)${zip5(destinationZip)}(${trackingNumber.slice(0, 2)})${trackingNumber.slice(2)}`;
  return bwipjs.toSVG({ bcid: 'gs1-128', text, scale: 1, height: 18, includetext: false, paddingwidth: 10 });
}
