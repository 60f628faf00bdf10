import { PDFDocument, PDFName, PDFString, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandboxCarrier } from '../src';
import { mergePdfs, parseClassicPdf } from '../src/label/pdf-merge';

const carrier = createSandboxCarrier({ renderThreads: 0 });
afterAll(() => carrier.close());

async function label(name: string): Promise<Buffer> {
  const result = await carrier.purchaseLabel({
    idempotencyKey: `merge-${name}`,
    serviceUid: 'usps_ground_advantage',
    from: { name: 'Sender Co', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
    to: { name, street1: '2 Elm St', city: 'Boston', state: 'MA', zip: '02101', country: 'US' },
    parcel: { weightLb: 1, length: 10, width: 6, height: 4 },
  });
  if (!result.ok) throw new Error(result.message);
  return result.pdf;
}

/** Decoded text drawing operators of each page, to tell pages apart and compare them with their sources. */
async function pageContents(pdf: Buffer): Promise<string[]> {
  const doc = await PDFDocument.load(pdf, { throwOnInvalidObject: true });
  return doc.getPages().map((page) => {
    const stream = page.node.Contents();
    return stream ? Buffer.from(stream.toString()).toString('latin1') : '';
  });
}

/** A PDF with a classic cross-reference table built from object bodies (object i + 1 is bodies[i]). */
function classicPdf(bodies: string[], root = 1): Buffer {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${bodies.length + 1} /Root ${root} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const stream = (content: string) => `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;

describe('label PDFs (the fast path)', () => {
  let labels: Buffer[];
  beforeAll(async () => {
    labels = await Promise.all(Array.from({ length: 30 }, (_, i) => label(`Receiver ${i}`)));
  });

  test('every label is read as a classic PDF with one page', () => {
    for (const pdf of labels) expect(parseClassicPdf(pdf)?.pages).toHaveLength(1);
  });

  test('the merge has every page in order, each identical to its source, and is itself a well-formed classic PDF', async () => {
    const merged = await mergePdfs(labels);
    const pages = await pageContents(merged);
    expect(pages).toHaveLength(30);
    const sources = (await Promise.all(labels.map(pageContents))).flat();
    expect(pages).toEqual(sources);
    // Written by the fast path (the general one writes a cross-reference stream), and its own table points at every
    // object exactly: the fast reader accepts it again.
    expect(parseClassicPdf(merged)?.pages).toHaveLength(30);
    const doc = await PDFDocument.load(merged);
    for (const page of doc.getPages()) expect(page.getSize()).toEqual({ width: 288, height: 432 });
  });

  test('shared objects (fonts, graphics states) are written once, so the merge stays small', async () => {
    const one = await mergePdfs([labels[0] as Buffer]);
    const all = await mergePdfs(labels);
    const perLabel = (all.length - one.length) / 29;
    expect(perLabel).toBeLessThan((labels[1] as Buffer).length);
    expect(all.toString('latin1').match(/\/BaseFont \/Helvetica-Bold/g)).toHaveLength(1);
  });
});

describe('other PDFs', () => {
  test('references are renumbered, but strings that look like references or the stream keyword are left alone', async () => {
    const content = 'BT /F1 12 Tf 20 20 Td (hello) Tj ET';
    const pdf = classicPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Note (see 4 0 R, then stream\n) /Hex <3420302052> >>',
      stream(content),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>',
    ]);
    expect(parseClassicPdf(pdf)?.pages).toEqual(['3 0']);
    const merged = await mergePdfs([pdf, pdf]);
    expect(parseClassicPdf(merged)?.pages).toHaveLength(2);
    const doc = await PDFDocument.load(merged, { throwOnInvalidObject: true });
    expect(doc.getPageCount()).toBe(2);
    const [first, second] = doc.getPages();
    expect(first?.node.lookup(PDFName.of('Note'), PDFString).decodeText()).toBe('see 4 0 R, then stream\n');
    expect(Buffer.from(second?.node.Contents()?.toString() ?? '').toString('latin1')).toContain(content);
    expect(second?.getSize()).toEqual({ width: 200, height: 100 });
  });

  test('documents with several pages keep their order', async () => {
    const three = classicPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Count 3 /Kids [6 0 R 3 0 R 7 0 R] >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 20 20] /Contents 4 0 R >>`,
      stream('% page B'),
      stream('% page A'),
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Contents 5 0 R >>`,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 30 30] /Contents 8 0 R >>`,
      stream('% page C'),
    ]);
    const doc = await PDFDocument.load(await mergePdfs([three]));
    expect(doc.getPages().map((p) => p.getWidth())).toEqual([10, 20, 30]);
  });

  test('a page tree that passes attributes down, or a cross-reference stream, goes through the general merge intact', async () => {
    const inherited = classicPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Count 1 /Kids [3 0 R] /MediaBox [0 0 144 72] >>',
      '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>',
      stream('% inherits its size'),
    ]);
    expect(parseClassicPdf(inherited)).toBeNull();

    const modern = await PDFDocument.create();
    modern.addPage([300, 300]).drawRectangle({ x: 10, y: 10, width: 50, height: 50, color: rgb(1, 0, 0) });
    const withObjectStreams = Buffer.from(await modern.save({ useObjectStreams: true }));
    expect(parseClassicPdf(withObjectStreams)).toBeNull();

    const merged = await mergePdfs([await label('Fallback'), inherited, withObjectStreams]);
    // Written by pdf-lib, whose cross-reference stream the fast reader does not take.
    expect(parseClassicPdf(merged)).toBeNull();
    const doc = await PDFDocument.load(merged);
    expect(doc.getPages().map((p) => p.getSize())).toEqual([
      { width: 288, height: 432 },
      { width: 144, height: 72 },
      { width: 300, height: 300 },
    ]);
  });

  test('a file that is no PDF is refused with an error', async () => {
    await expect(mergePdfs([Buffer.from('not a pdf at all')])).rejects.toThrow();
    expect(parseClassicPdf(Buffer.from('%PDF-1.4\ntruncated'))).toBeNull();
  });
});
