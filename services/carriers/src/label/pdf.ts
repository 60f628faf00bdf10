import pdfmake from 'pdfmake';
import type { TCreatedPdf, TDocumentDefinitions } from 'pdfmake/interfaces';

// The standard 14 PDF fonts need no font files. Families are registered under our own names and merged with
// addFonts, so another pdfmake user in the same process keeps its own fonts.
const STANDARD_FONTS = new Set(['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Courier', 'Courier-Bold']);

pdfmake.addFonts({
  LabelSans: {
    normal: 'Helvetica',
    bold: 'Helvetica-Bold',
    italics: 'Helvetica-Oblique',
    bolditalics: 'Helvetica-Bold',
  },
  LabelMono: { normal: 'Courier', bold: 'Courier-Bold', italics: 'Courier', bolditalics: 'Courier-Bold' },
});
// Labels embed nothing from the network or the file system: refuse both, which also keeps pdfmake from warning on
// every document about missing policies.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => STANDARD_FONTS.has(path));

export function createPdf(doc: TDocumentDefinitions): TCreatedPdf {
  return pdfmake.createPdf(doc);
}

interface AfmFontLike {
  attributes: unknown;
  glyphWidths: unknown;
  boundingBoxes: unknown;
  kernPairs: unknown;
  parse(contents: string): void;
}
type AfmPrototype = AfmFontLike & { __labelMetricsCached?: true };

/**
 * pdfkit re-reads and re-parses the AFM metrics of every standard font for every document, which is about a third
 * of the time a label takes. The metrics never change, so the parse is memoised per font file. pdfkit exposes no
 * hook for this; the patch is reached through a font object of a warm-up document and applied only when that
 * object has the expected shape, so a pdfkit upgrade that changes it costs speed, not correctness.
 */
async function cacheStandardFontMetrics(): Promise<void> {
  const doc = await pdfmake
    .createPdf({ content: [{ text: 'warm-up', font: 'LabelSans' }], defaultStyle: { font: 'LabelSans' } })
    .getStream();
  const fontCache = (doc as unknown as { fontCache?: Record<string, Record<string, { font?: unknown }>> }).fontCache;
  doc.end();
  const afm = fontCache?.LabelSans?.normal?.font;
  if (!afm || typeof afm !== 'object') return;
  const proto = Object.getPrototypeOf(afm) as AfmPrototype;
  if (typeof proto.parse !== 'function' || proto.__labelMetricsCached) return;
  const parse = proto.parse;
  const parsed = new Map<string, Pick<AfmFontLike, 'attributes' | 'glyphWidths' | 'boundingBoxes' | 'kernPairs'>>();
  proto.parse = function parseOnce(this: AfmFontLike, contents: string) {
    const hit = parsed.get(contents);
    if (hit) {
      // Shared read-only: pdfkit only reads these tables after parsing.
      Object.assign(this, hit);
      return;
    }
    parse.call(this, contents);
    parsed.set(contents, {
      attributes: this.attributes,
      glyphWidths: this.glyphWidths,
      boundingBoxes: this.boundingBoxes,
      kernPairs: this.kernPairs,
    });
  };
  proto.__labelMetricsCached = true;
}

export const pdfReady: Promise<void> = cacheStandardFontMetrics().catch(() => undefined);
