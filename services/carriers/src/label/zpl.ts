import type { LabelAddress } from '../port';
import { formatTrackingNumber } from '../usps/impb';
import { formatShipDate, formatWeight, formatZip, zip5 } from './format';
import type { LabelData } from './label-data';

/**
 * A 4x6 label in ZPL II for 203 dpi thermal printers (812 × 1218 dots): the same marks as the PDF label, drawn
 * by the printer's own fonts and its GS1-128 barcode (`^BC` in UCC/EAN mode, which puts the FNC1 characters in).
 */
export const ZPL_DOTS = { width: 812, height: 1218 } as const;

/** Field text as the printer reads it: `^` and `~` would start commands, so they are dropped; UTF-8 via ^CI28. */
function text(value: string | undefined): string {
  return (value ?? '').replace(/[\^~]/g, ' ').replace(/\s+/g, ' ').trim();
}

function addressLines(a: LabelAddress): string[] {
  const cityLine = `${a.city} ${a.state} ${formatZip(a.zip)}`;
  return [a.name, a.company, a.street1, a.street2, cityLine].filter((l): l is string => !!l && l.trim() !== '');
}

const field = (x: number, y: number, size: number, value: string) =>
  `^FO${x},${y}^A0N,${size},${size}^FD${text(value)}^FS`;
const centred = (y: number, size: number, value: string) =>
  `^FO0,${y}^A0N,${size},${size}^FB${ZPL_DOTS.width},1,0,C^FD${text(value)}^FS`;
const rule = (y: number, thickness: number) => `^FO0,${y}^GB${ZPL_DOTS.width},${thickness},${thickness}^FS`;

/**
 * The IMpb as the PDF draws it: Code 128 subset C (`>;`), FNC1 (`>8`), AI 420 with the destination ZIP, FNC1
 * (AI 420 is of variable length), then the tracking number, whose first two digits are its own AI. Spelled out
 * rather than left to `^BC`'s UCC/EAN mode, which not every printer or renderer follows with the FNC1 after the
 * ZIP; so the printed bars carry exactly the data of the PDF's. Digits of odd length (never an IMpb) go through
 * that mode instead.
 */
export function impbField(zip: string, trackingNumber: string): string {
  const ai420 = `420${zip}`;
  if (ai420.length % 2 === 0 && trackingNumber.length % 2 === 0 && /^\d+$/.test(ai420 + trackingNumber)) {
    return `^BCN,190,N,N,N,N^FD>;>8${ai420}>8${trackingNumber}^FS`;
  }
  return `^BCN,190,N,N,N,D^FD(420)${zip}(${trackingNumber.slice(0, 2)})${trackingNumber.slice(2)}^FS`;
}

export function renderZplLabel(data: LabelData): Buffer {
  const lines: string[] = ['^XA', '^CI28', `^PW${ZPL_DOTS.width}`, `^LL${ZPL_DOTS.height}`, '^LH0,0'];
  // The service letter in its box, the date, weight and origin beside it.
  lines.push('^FO24,24^GB190,190,6^FS', `^FO62,40^A0N,170,150^FD${text(data.service.letter)}^FS`);
  lines.push(field(240, 40, 28, formatShipDate(data.shipDate)));
  lines.push(field(240, 78, 28, formatWeight(data.weightLb)));
  lines.push(field(240, 116, 28, `From ${zip5(data.from.zip)}`));
  lines.push(rule(236, 6), centred(258, 52, data.service.banner), rule(326, 6));
  addressLines(data.from).forEach((l, i) => void lines.push(field(30, 350 + i * 30, 26, l)));
  lines.push(field(30, 540, 30, 'SHIP'), field(30, 572, 30, 'TO:'));
  addressLines(data.to).forEach((l, i) => void lines.push(field(130, 540 + i * 44, 40, l)));
  lines.push(rule(790, 6), centred(808, 30, data.service.trackingBanner.trim()));
  const t = data.trackingNumber;
  lines.push(`^FO56,850^BY3,3,190${impbField(zip5(data.to.zip), t)}`);
  lines.push(centred(1060, 34, formatTrackingNumber(t)), rule(1110, 6));
  const refs = data.references;
  const refText = [
    refs?.orderId && `Order ${refs.orderId}`,
    refs?.sku && `SKU ${refs.sku}`,
    refs?.quantity && `Qty ${refs.quantity}`,
  ]
    .filter(Boolean)
    .join('   ');
  if (refText) lines.push(field(30, 1130, 26, refText));
  lines.push('^XZ', '');
  return Buffer.from(lines.join('\n'), 'utf8');
}
