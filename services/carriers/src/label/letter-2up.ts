/**
 * 4x6 labels two to a US Letter page, for office printers: each label turned a quarter turn and centred in
 * one half of the sheet (8.5 × 5.5 in), which is the shape of half-sheet label stock and of a sheet cut in two.
 * Labels keep their size (100%), so the barcode prints at the width the carrier drew it.
 */
export const LETTER = { width: 612, height: 792 } as const;

/** One document of `ceil(n / 2)` letter pages from the pages of the given PDFs, in order. */
export async function letterTwoUp(pdfs: Buffer[]): Promise<Buffer> {
  // Loaded when a letter file is asked for: pdf-lib is 137 modules to load at start.
  const { PDFDocument, degrees } = await import('pdf-lib');
  const out = await PDFDocument.create();
  const half = LETTER.height / 2;
  let slot = 0;
  let page: ReturnType<typeof out.addPage> | null = null;
  for (const pdf of pdfs) {
    const source = await PDFDocument.load(pdf);
    const embedded = await out.embedPages(source.getPages());
    for (const label of embedded) {
      if (slot % 2 === 0) page = out.addPage([LETTER.width, LETTER.height]);
      // Turned a quarter turn anticlockwise about (x, y): the label's width runs up, its height runs left.
      const scale = Math.min(1, (half - 18) / label.width, (LETTER.width - 36) / label.height);
      const w = label.height * scale;
      const h = label.width * scale;
      const x = (LETTER.width - w) / 2 + w;
      const y = (slot % 2 === 0 ? half : 0) + (half - h) / 2;
      page?.drawPage(label, { x, y, xScale: scale, yScale: scale, rotate: degrees(90) });
      slot++;
    }
  }
  return Buffer.from(await out.save());
}
