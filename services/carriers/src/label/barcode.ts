import bwipjs from 'bwip-js/node';
import { zip5 } from './format';

/** A linear barcode as module widths: bar, space, bar, … (in modules), with `quietZone` modules on each side. */
export interface LinearBarcode {
  widths: number[];
  quietZone: number;
}

/** Code 128 symbol patterns (bar, space, … widths in modules), by symbol value; the standard table. */
const CODE128 = [
  '212222',
  '222122',
  '222221',
  '121223',
  '121322',
  '131222',
  '122213',
  '122312',
  '132212',
  '221213',
  '221312',
  '231212',
  '112232',
  '122132',
  '122231',
  '113222',
  '123122',
  '123221',
  '223211',
  '221132',
  '221231',
  '213212',
  '223112',
  '312131',
  '311222',
  '321122',
  '321221',
  '312212',
  '322112',
  '322211',
  '212123',
  '212321',
  '232121',
  '111323',
  '131123',
  '131321',
  '112313',
  '132113',
  '132311',
  '211313',
  '231113',
  '231311',
  '112133',
  '112331',
  '132131',
  '113123',
  '113321',
  '133121',
  '313121',
  '211331',
  '231131',
  '213113',
  '213311',
  '213131',
  '311123',
  '311321',
  '331121',
  '312113',
  '312311',
  '332111',
  '314111',
  '221411',
  '431111',
  '111224',
  '111422',
  '121124',
  '121421',
  '141122',
  '141221',
  '112214',
  '112412',
  '122114',
  '122411',
  '142112',
  '142211',
  '241211',
  '221114',
  '413111',
  '241112',
  '134111',
  '111242',
  '121142',
  '121241',
  '114212',
  '124112',
  '124211',
  '411212',
  '421112',
  '421211',
  '212141',
  '214121',
  '412121',
  '111143',
  '111341',
  '131141',
  '114113',
  '114311',
  '411113',
  '411311',
  '113141',
  '114131',
  '311141',
  '411131',
  '211412',
  '211214',
  '211232',
  '2331112',
].map((pattern) => [...pattern].map(Number));
const FNC1 = 102;
const START_C = 105;
const STOP = 106;

/**
 * GS1-128 of digit-only element strings that each have an even number of digits, the IMpb's usual shape ('420' and
 * a 5-digit ZIP, then the 22-digit tracking number): code set C throughout, FNC1 first and between the variable-length
 * elements. This is the encoding bwip-js chooses for such data, without the general encoder's cost per label; any
 * other data goes to bwip-js.
 */
function gs1128EvenDigits(elements: string[]): LinearBarcode | null {
  const symbols = [START_C];
  for (const element of elements) {
    if (element.length % 2 !== 0 || !/^\d+$/.test(element)) return null;
    symbols.push(FNC1);
    for (let i = 0; i < element.length; i += 2) symbols.push(Number(element.slice(i, i + 2)));
  }
  let check = symbols[0] as number;
  for (let i = 1; i < symbols.length; i++) check += i * (symbols[i] as number);
  symbols.push(check % 103, STOP);
  return { widths: symbols.flatMap((s) => CODE128[s] as number[]), quietZone: 10 };
}

/**
 * The IMpb as GS1-128: AI 420 with the destination ZIP, then the 22-digit tracking number. The tracking number's
 * own first two digits (92–95) sit in the GS1 company-internal AI range, so '(420)12345(92)…' is the standard form;
 * AI 420 is variable length, so bwip-js inserts the FNC1 separator after the ZIP. Only the encoding is asked of
 * bwip-js; the label draws the bars itself, which costs a fraction of drawing them through SVG.
 */
export function impbBarcode(trackingNumber: string, destinationZip: string): LinearBarcode {
  const fast = gs1128EvenDigits([`420${zip5(destinationZip)}`, trackingNumber]);
  if (fast) return fast;
  return impbBarcodeByBwip(trackingNumber, destinationZip);
}

/** The same barcode through bwip-js's general GS1-128 encoder (any data it accepts). */
export function impbBarcodeByBwip(trackingNumber: string, destinationZip: string): LinearBarcode {
  const text = `(420)${zip5(destinationZip)}(${trackingNumber.slice(0, 2)})${trackingNumber.slice(2)}`;
  const [encoded] = bwipjs.raw('gs1-128', text);
  if (!(encoded && 'sbs' in encoded && encoded.sbs.length > 0)) {
    throw new Error(`no barcode could be encoded for ${text}`);
  }
  return { widths: encoded.sbs, quietZone: 10 };
}
