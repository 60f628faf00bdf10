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

/** The parts of pdfkit's standard-font object (`StandardFont`) this module relies on. */
interface StandardFontLike {
  document: unknown;
  name: string;
  id: string;
  font: AfmFontLike;
  ascender: number;
  descender: number;
  bbox: number[];
  lineGap: number;
  xHeight: number;
  capHeight: number;
}

interface AfmFontLike {
  glyphWidths: Record<string, number>;
  kernPairs: Record<string, number>;
  getKernPair(left: string, right: string | undefined): number;
}

/** What pdfmake's document (a pdfkit document) offers for fonts. */
interface PdfKitDocumentLike {
  _fontFamilies: Record<string, StandardFontLike>;
  _fontCount: number;
  _font: StandardFontLike;
  _fontSource: unknown;
  _fontFamily: unknown;
  font(src: unknown, family?: unknown, size?: unknown): PdfKitDocumentLike;
}

const STANDARD_FONT_KEYS = [
  'document',
  'name',
  'id',
  'font',
  'ascender',
  'descender',
  'bbox',
  'lineGap',
  'xHeight',
  'capHeight',
].sort();

/**
 * Kerning looked up in a map per left glyph instead of pdfkit's one object keyed by 'left\0right', which builds a
 * string for every pair of every word measured or drawn. Same table, same numbers.
 */
function fastKerning(afm: AfmFontLike): void {
  const byLeft = new Map<string, Map<string, number>>();
  for (const [pair, value] of Object.entries(afm.kernPairs)) {
    const cut = pair.indexOf('\0');
    const left = pair.slice(0, cut);
    let rights = byLeft.get(left);
    if (!rights) {
      rights = new Map();
      byLeft.set(left, rights);
    }
    rights.set(pair.slice(cut + 1), value);
  }
  afm.getKernPair = (left, right) => (right === undefined ? 0 : byLeft.get(left)?.get(right) || 0);
}

interface PdfReferenceLike {
  data: { Length?: number; Filter?: string };
  compress: boolean;
  uncompressedLength: number;
  buffer: (Uint8Array | string)[] | Buffer;
  write(chunk: unknown): void;
  finalize(): void;
}

/**
 * pdfkit turns every operator it adds to a page's content into its own small Buffer, then concatenates them; a
 * label's page has several hundred. The text is kept as text instead, as pdfkit would encode it (latin1, one byte a
 * character, so the lengths are the same), and encoded once when the object is written.
 */
function textContentStreams(refProto: PdfReferenceLike & { __labelTextStreams?: true }): void {
  if (refProto.__labelTextStreams) return;
  const { write, finalize } = refProto;
  refProto.write = function writeText(this: PdfReferenceLike, chunk: unknown) {
    if (chunk instanceof Uint8Array || !Array.isArray(this.buffer)) return write.call(this, chunk);
    const text = `${chunk}\n`;
    this.uncompressedLength += text.length;
    this.data.Length = (this.data.Length ?? 0) + text.length;
    this.buffer.push(text);
    if (this.compress) this.data.Filter = 'FlateDecode';
  };
  refProto.finalize = function finalizeText(this: PdfReferenceLike) {
    if (Array.isArray(this.buffer) && this.buffer.some((part) => typeof part === 'string')) {
      const parts: Uint8Array[] = [];
      let text = '';
      for (const part of this.buffer) {
        if (typeof part === 'string') {
          text += part;
          continue;
        }
        if (text) parts.push(Buffer.from(text, 'latin1'));
        text = '';
        parts.push(part);
      }
      if (text) parts.push(Buffer.from(text, 'latin1'));
      this.buffer = parts;
    }
    finalize.call(this);
  };
  refProto.__labelTextStreams = true;
}

/**
 * pdfkit makes every document read its standard fonts' AFM files again and parse them (about a third of what a
 * label costs before anything is laid out). The metrics never change, so each standard font is made once per
 * process, from a warm-up document, and every later document gets its own font object (its own id and PDF
 * dictionary, so nothing of one document reaches another) sharing that font's read-only metrics. pdfkit exposes no
 * hook for this; `font()` of pdfkit's document is wrapped only when the warm-up font object has exactly the expected
 * shape, so a pdfkit upgrade that changes it costs speed, not correctness.
 */
async function shareStandardFonts(): Promise<void> {
  const doc = await pdfmake
    .createPdf({ content: [{ text: 'warm-up', font: 'LabelSans' }], defaultStyle: { font: 'LabelSans' } })
    .getStream();
  doc.end();
  const warm = (doc as unknown as { fontCache?: Record<string, Record<string, StandardFontLike | undefined>> })
    .fontCache?.LabelSans?.normal;
  if (!warm || typeof warm !== 'object') return;
  // Its own fields, less the PDF dictionary its document gave it while drawing the warm-up text.
  const fields = Object.keys(warm).filter((k) => k !== 'dictionary' && k !== 'embedded');
  const ref = (warm as { dictionary?: PdfReferenceLike }).dictionary;
  if (
    ref &&
    typeof ref.write === 'function' &&
    typeof ref.finalize === 'function' &&
    typeof ref.uncompressedLength === 'number'
  ) {
    textContentStreams(Object.getPrototypeOf(ref));
  }
  if (fields.sort().join() !== STANDARD_FONT_KEYS.join()) return;
  const fontProto = Object.getPrototypeOf(warm) as object;
  const docProto = Object.getPrototypeOf(Object.getPrototypeOf(doc)) as PdfKitDocumentLike & {
    __labelFontsShared?: true;
  };
  if (typeof docProto.font !== 'function' || docProto.__labelFontsShared) return;

  // Per standard font, its metrics as pdfkit computed them for the first document that used it.
  type Metrics = Omit<StandardFontLike, 'document' | 'id'>;
  const made = new Map<string, Metrics>();
  const font = docProto.font;
  docProto.font = function fontSharingMetrics(this: PdfKitDocumentLike, src, family, size) {
    // Only what pdfmake asks for: a standard font by name, no family, no size, not yet in this document.
    if (typeof src !== 'string' || !STANDARD_FONTS.has(src) || family !== undefined || size !== undefined) {
      return font.call(this, src, family, size);
    }
    const own = this._fontFamilies[src];
    const template = made.get(src);
    if (own || !template) {
      font.call(this, src);
      if (!own && this._font.name === src) {
        const { name, font: afm, ascender, descender, bbox, lineGap, xHeight, capHeight } = this._font;
        fastKerning(afm);
        made.set(src, { name, font: afm, ascender, descender, bbox, lineGap, xHeight, capHeight });
      }
      return this;
    }
    const copy = Object.create(fontProto) as StandardFontLike;
    Object.assign(copy, { document: this, id: `F${++this._fontCount}` }, template);
    this._fontSource = src;
    this._fontFamily = undefined;
    this._fontFamilies[src] = copy;
    this._font = copy;
    return this;
  };
  docProto.__labelFontsShared = true;
}

export const pdfReady: Promise<void> = shareStandardFonts().catch(() => undefined);
