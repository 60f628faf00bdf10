import type { CanvasElement, Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { LabelAddress } from '../port';
import { formatTrackingNumber } from '../usps/impb';
import { impbBarcode } from './barcode';
import { formatShipDate, formatWeight, formatZip, zip5 } from './format';
import type { LabelData } from './label-data';
import { createPdf, pdfReady } from './pdf';

// A 4x6 inch thermal label: 288 x 432 pt.
const PAGE_WIDTH = 288;
const PAGE_HEIGHT = 432;
const MARGIN = 8;
const WIDTH = PAGE_WIDTH - 2 * MARGIN;
const THICK = 3;
// The tracking block sits at the foot of the label whatever the address length, like every USPS label.
const TRACKING_BLOCK_TOP = 297;

function rule(lineWidth = THICK, margin: [number, number, number, number] = [0, 0, 0, 0]): Content {
  return {
    canvas: [{ type: 'line', x1: 0, y1: lineWidth / 2, x2: WIDTH, y2: lineWidth / 2, lineWidth }],
    margin,
  };
}

function addressLines(address: LabelAddress): string[] {
  const lines = [address.name];
  if (address.company) lines.push(address.company);
  lines.push(address.street1);
  if (address.street2) lines.push(address.street2);
  lines.push(`${address.city} ${address.state} ${formatZip(address.zip)}`);
  return lines;
}

function header(data: LabelData): Content {
  return {
    columns: [
      {
        width: 74,
        table: {
          widths: [66],
          heights: [66],
          body: [[{ text: data.service.letter, fontSize: 60, bold: true, alignment: 'center', margin: [0, 2, 0, 0] }]],
        },
        layout: { hLineWidth: () => THICK, vLineWidth: () => THICK },
      },
      { width: '*', text: '' },
      {
        width: 116,
        table: {
          widths: [108],
          body: [
            [
              {
                stack: [
                  { text: 'US POSTAGE PAID', bold: true, fontSize: 8.5 },
                  { text: 'ePostage', fontSize: 8 },
                  { text: `ZIP ${zip5(data.from.zip)}`, fontSize: 7.5, margin: [0, 4, 0, 0] },
                  { text: formatShipDate(data.shipDate), fontSize: 7.5 },
                  { text: formatWeight(data.weightLb), fontSize: 7.5, bold: true },
                  { text: 'Commercial', fontSize: 6.5, margin: [0, 3, 0, 0] },
                ],
                alignment: 'center',
                margin: [2, 3, 2, 3],
              },
            ],
          ],
        },
        layout: { hLineWidth: () => 1, vLineWidth: () => 1 },
      },
    ],
    margin: [0, 0, 0, 6],
  };
}

// Helvetica-Bold capitals average about 0.6 em; the banner must stay on one line, so long names get a smaller size.
function bannerFontSize(banner: string): number {
  return Math.min(17, Math.floor(WIDTH / (banner.length * 0.62)));
}

function banner(data: LabelData): Content[] {
  return [
    rule(THICK),
    {
      text: data.service.banner,
      bold: true,
      fontSize: bannerFontSize(data.service.banner),
      alignment: 'center',
      margin: [0, 4, 0, 2],
    },
    rule(THICK, [0, 0, 0, 5]),
  ];
}

function sender(data: LabelData): Content {
  const refs = data.references ?? {};
  const refLines: Content[] = [];
  if (refs.quantity) refLines.push({ text: `Quantity: ${refs.quantity}` });
  if (refs.sku) refLines.push({ text: `SKU: ${refs.sku}` });
  if (refs.orderId) refLines.push({ text: `Order: ${refs.orderId}` });
  return {
    columns: [
      { width: '*', stack: addressLines(data.from).map((line) => line.toUpperCase()), fontSize: 7.5, lineHeight: 1.1 },
      { width: 100, stack: refLines, fontSize: 7.5, alignment: 'right' },
    ],
    margin: [0, 0, 0, 10],
  };
}

function shipTo(data: LabelData): Content {
  return {
    columns: [
      { width: 46, text: 'SHIP\nTO:', bold: true, fontSize: 9, margin: [0, 1, 0, 0] },
      {
        width: '*',
        stack: addressLines(data.to).map((line) => line.toUpperCase()),
        fontSize: 12.5,
        lineHeight: 1.05,
      },
    ],
    margin: [0, 16, 0, 0],
  };
}

const BARCODE_BOX = { width: WIDTH - 12, height: 70 };
/** Height of the bars in modules (18 mm at bwip-js's 1 unit per module, as the SVG it drew had). */
const BARCODE_BAR_MODULES = 52;

/**
 * The tracking barcode as filled bars on a canvas, scaled to fit its box with the aspect kept and centred in it,
 * quiet zones included: the same marks an SVG of the barcode would leave, drawn without parsing one.
 */
function barcodeBars(data: LabelData): Content {
  const { widths, quietZone } = impbBarcode(data.trackingNumber, data.to.zip);
  const modules = widths.reduce((sum, w) => sum + w, 0) + 2 * quietZone;
  const scale = Math.min(BARCODE_BOX.width / modules, BARCODE_BOX.height / BARCODE_BAR_MODULES);
  const left = (WIDTH - BARCODE_BOX.width) / 2 + (BARCODE_BOX.width - modules * scale) / 2;
  const top = (BARCODE_BOX.height - BARCODE_BAR_MODULES * scale) / 2;
  const bars: CanvasElement[] = [];
  let at = quietZone;
  widths.forEach((w, i) => {
    // Even positions are bars, odd ones the spaces between them.
    if (i % 2 === 0) {
      bars.push({
        type: 'rect',
        x: left + at * scale,
        y: top,
        w: w * scale,
        h: BARCODE_BAR_MODULES * scale,
        color: '#000000',
      });
    }
    at += w;
  });
  // The canvas is as tall as its lowest mark; the margin keeps the whole box below the bars.
  return { canvas: bars, margin: [0, 0, 0, BARCODE_BOX.height - (top + BARCODE_BAR_MODULES * scale)] };
}

function trackingBlock(data: LabelData): Content {
  return {
    absolutePosition: { x: MARGIN, y: TRACKING_BLOCK_TOP },
    stack: [
      rule(THICK * 2),
      { text: data.service.trackingBanner, bold: true, fontSize: 10.5, alignment: 'center', margin: [0, 5, 0, 4] },
      barcodeBars(data),
      {
        text: formatTrackingNumber(data.trackingNumber),
        bold: true,
        fontSize: 11,
        alignment: 'center',
        margin: [0, 5, 0, 5],
      },
      rule(THICK * 2),
    ],
  };
}

export function labelDocument(data: LabelData): TDocumentDefinitions {
  return {
    pageSize: { width: PAGE_WIDTH, height: PAGE_HEIGHT },
    pageMargins: MARGIN,
    info: { title: `Label ${data.trackingNumber}`, creator: 'Flatship', producer: 'Flatship' },
    defaultStyle: { font: 'LabelSans', fontSize: 9 },
    content: [header(data), ...banner(data), sender(data), shipTo(data), trackingBlock(data)],
  };
}

/** Renders one 4x6 label. Fonts are the standard PDF 14, so nothing is read from disk per label. */
export async function renderLabel(data: LabelData): Promise<Buffer> {
  await pdfReady;
  return createPdf(labelDocument(data)).getBuffer();
}
