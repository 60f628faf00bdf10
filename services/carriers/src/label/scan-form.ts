import bwipjs from 'bwip-js/node';
import type { CanvasElement, Content } from 'pdfmake/interfaces';
import type { LabelAddress } from '../port';
import { formatTrackingNumber } from '../usps/impb';
import { formatShipDate, formatZip } from './format';
import { createPdf, pdfReady } from './pdf';

/** What a PS Form 5630 (Shipment Confirmation Acceptance Notice) shows. */
export interface ScanFormData {
  /** The form's own number, printed and scanned by the acceptance clerk. */
  formId: string;
  from: LabelAddress;
  shipDate: Date;
  trackingNumbers: readonly string[];
  /** Who issued it (the carrier's name). */
  issuer: string;
}

/** The form number as Code 128 bars, for the acceptance scan. */
function formBarcode(formId: string): Content {
  const [encoded] = bwipjs.raw('code128', formId);
  const widths = encoded && 'sbs' in encoded ? encoded.sbs : [];
  const module = 1.4;
  const bars: CanvasElement[] = [];
  let at = 0;
  widths.forEach((w, i) => {
    if (i % 2 === 0) bars.push({ type: 'rect', x: at * module, y: 0, w: w * module, h: 46, color: '#000000' });
    at += w;
  });
  return { canvas: bars, margin: [0, 6, 0, 2] };
}

const addressText = (a: LabelAddress) =>
  [a.name, a.company, a.street1, a.street2, `${a.city} ${a.state} ${formatZip(a.zip)}`].filter(Boolean).join('\n');

/**
 * One PS Form 5630 on US Letter: the shipper, the mailing date, the number of pieces and every tracking number,
 * so one scan at acceptance marks them all as received.
 */
export async function renderScanForm(data: ScanFormData): Promise<Buffer> {
  await pdfReady;
  const rows: Content[][] = data.trackingNumbers.map((t, i) => [
    { text: String(i + 1), alignment: 'right' },
    { text: formatTrackingNumber(t), font: 'LabelMono' },
  ]);
  return createPdf({
    pageSize: 'LETTER',
    pageMargins: 48,
    info: { title: `PS Form 5630 ${data.formId}`, creator: 'Flatship', producer: 'Flatship' },
    defaultStyle: { font: 'LabelSans', fontSize: 10 },
    content: [
      { text: 'PS Form 5630', bold: true, fontSize: 18 },
      { text: 'Shipment Confirmation Acceptance Notice', fontSize: 13, margin: [0, 2, 0, 14] },
      {
        columns: [
          { stack: [{ text: 'Shipper', bold: true }, { text: addressText(data.from) }] },
          {
            stack: [
              { text: 'Form number', bold: true },
              formBarcode(data.formId),
              { text: data.formId, font: 'LabelMono', fontSize: 12 },
              { text: 'Mailing date', bold: true, margin: [0, 8, 0, 0] },
              { text: formatShipDate(data.shipDate) },
              { text: 'Pieces', bold: true, margin: [0, 8, 0, 0] },
              { text: String(data.trackingNumbers.length) },
            ],
          },
        ],
      },
      { text: `Issued by ${data.issuer}`, italics: true, margin: [0, 12, 0, 12] },
      {
        table: {
          headerRows: 1,
          widths: [30, '*'],
          body: [
            [
              { text: '#', bold: true },
              { text: 'Tracking number', bold: true },
            ],
            ...rows,
          ],
        },
        layout: 'lightHorizontalLines',
      },
      {
        text: 'Acceptance clerk: scan the form number to accept every piece listed. Postmark and signature below.',
        fontSize: 9,
        margin: [0, 18, 0, 30],
      },
      { text: 'Postmark ____________________      Employee signature ______________________________' },
    ],
  }).getBuffer();
}
