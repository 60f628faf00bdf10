/**
 * Merging label PDFs into one document, in order.
 *
 * Label PDFs are small, written in one go, with a classic cross-reference
 * table: the fast path reads each one's table, copies the objects its pages
 * reach byte for byte (stream data untouched), renumbers their references and
 * writes one new page tree. It is about ten times quicker than loading every
 * document into an object model, which matters because the merge is the last
 * step before a bulk order's files are ready. Any document outside that shape
 * (cross-reference streams, incremental updates, encryption, attributes
 * inherited from the page tree, anything unexpected) sends the whole merge
 * through pdf-lib instead, so the result is always a valid PDF.
 */
export async function mergePdfs(pdfs: Buffer[]): Promise<Buffer> {
  const parsed: ParsedPdf[] = [];
  for (const pdf of pdfs) {
    const p = parseClassicPdf(pdf);
    if (!p) return mergeWithPdfLib(pdfs);
    parsed.push(p);
  }
  return writeMerged(parsed);
}

/** The general path: every document loaded and its pages copied by pdf-lib. */
export async function mergeWithPdfLib(pdfs: Buffer[]): Promise<Buffer> {
  // Loaded only when a merge needs it (the sandbox's labels never do): pdf-lib is 137 modules to load at start.
  const { PDFDocument } = await import('pdf-lib');
  const merged = await PDFDocument.create();
  for (const pdf of pdfs) {
    const doc = await PDFDocument.load(pdf);
    const pages = await merged.copyPages(doc, doc.getPageIndices());
    for (const page of pages) merged.addPage(page);
  }
  return Buffer.from(await merged.save());
}

interface PdfObject {
  /** Byte offset just after `n g obj`. */
  start: number;
  /** Byte offset of its `endobj`. */
  end: number;
}

export interface ParsedPdf {
  buf: Buffer;
  objects: Map<string, PdfObject>;
  /** Page objects in document order. */
  pages: string[];
  /** Objects that must not be copied: the catalog and the page-tree nodes. */
  structural: Set<string>;
}

const refKey = (n: number | string, g: number | string) => `${Number(n)} ${Number(g)}`;
const DELIMITER = /[\s()<>[\]{}/%]/;
const REF = /(\d+)\s+(\d+)\s+R(?![^\s()<>[\]{}/%])/y;

interface Scan {
  /** The object's text up to its stream keyword (or all of it), references rewritten by `mapRef`. */
  text: string;
  /** Where the stream keyword starts, or -1. */
  streamAt: number;
}

/**
 * Walks PDF object syntax outside strings and comments, calling `onRef` for
 * every `n g R` (with the name of the dictionary key it follows, if any) and
 * replacing it with what `onRef` returns. Stops at the `stream` keyword: stream
 * data is never read as syntax.
 */
function scanObject(text: string, onRef: (key: string, lastName: string | null) => string): Scan {
  let out = '';
  let i = 0;
  let copied = 0;
  let lastName: string | null = null;
  const n = text.length;
  // Its own sticky pattern: onRef may scan other objects meanwhile.
  const ref = new RegExp(REF);
  while (i < n) {
    const c = text[i] as string;
    if (c === '(') {
      let depth = 1;
      i++;
      while (i < n && depth > 0) {
        const d = text[i];
        if (d === '\\') i += 2;
        else {
          if (d === '(') depth++;
          else if (d === ')') depth--;
          i++;
        }
      }
      lastName = null;
      continue;
    }
    if ((c === '<' && text[i + 1] === '<') || (c === '>' && text[i + 1] === '>')) {
      i += 2;
      lastName = null;
      continue;
    }
    if (c === '<') {
      const close = text.indexOf('>', i);
      i = close < 0 ? n : close + 1;
      lastName = null;
      continue;
    }
    if (c === '%') {
      while (i < n && text[i] !== '\n' && text[i] !== '\r') i++;
      continue;
    }
    if (c === '/') {
      let j = i + 1;
      while (j < n && !DELIMITER.test(text[j] as string)) j++;
      lastName = text.slice(i, j);
      i = j;
      continue;
    }
    if (c >= '0' && c <= '9' && (i === 0 || DELIMITER.test(text[i - 1] as string))) {
      ref.lastIndex = i;
      const m = ref.exec(text);
      if (m) {
        out += text.slice(copied, i) + onRef(refKey(m[1] as string, m[2] as string), lastName);
        i = ref.lastIndex;
        copied = i;
        lastName = null;
        continue;
      }
      while (i < n && text[i] !== undefined && /[0-9.+-]/.test(text[i] as string)) i++;
      lastName = null;
      continue;
    }
    if (c === 's' && text.startsWith('stream', i) && (i === 0 || DELIMITER.test(text[i - 1] as string))) {
      const after = text[i + 6];
      if (after === '\r' || after === '\n') return { text: out + text.slice(copied, i), streamAt: i };
    }
    if (c === '[' || c === ']' || c === '{' || c === '}') lastName = null;
    i++;
  }
  return { text: out + text.slice(copied), streamAt: -1 };
}

const refsOf = (text: string): { key: string; lastName: string | null }[] => {
  const refs: { key: string; lastName: string | null }[] = [];
  scanObject(text, (key, lastName) => {
    refs.push({ key, lastName });
    return '';
  });
  return refs;
};

const nameValue = (dict: string, name: string): string | null => {
  const m = new RegExp(`/${name}\\s*/([^\\s()<>\\[\\]{}/%]+)`).exec(dict);
  return m ? (m[1] as string) : null;
};

const INHERITABLE = /\/(Resources|MediaBox|CropBox|Rotate)(?![^\s()<>[\]{}/%])/;

/** Reads a PDF with one classic cross-reference table; null for anything else. */
export function parseClassicPdf(buf: Buffer): ParsedPdf | null {
  if (!buf.subarray(0, 5).equals(Buffer.from('%PDF-'))) return null;
  const tail = buf.toString('latin1', Math.max(0, buf.length - 1024));
  const sx = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!sx) return null;
  const xrefAt = Number(sx[1]);
  if (!(xrefAt > 0 && xrefAt < buf.length) || buf.toString('latin1', xrefAt, xrefAt + 4) !== 'xref') return null;
  const rest = buf.toString('latin1', xrefAt + 4);
  const trailerAt = rest.indexOf('trailer');
  if (trailerAt < 0) return null;
  const trailer = rest.slice(trailerAt + 7, rest.indexOf('startxref', trailerAt));
  if (/\/(Prev|Encrypt|XRefStm)\b/.test(trailer)) return null;
  const root = /\/Root\s+(\d+)\s+(\d+)\s+R/.exec(trailer);
  if (!root) return null;

  const tokens = rest.slice(0, trailerAt).trim().split(/\s+/);
  const offsets = new Map<string, number>();
  let t = 0;
  while (t < tokens.length) {
    const first = Number(tokens[t]);
    const count = Number(tokens[t + 1]);
    if (!Number.isInteger(first) || !Number.isInteger(count) || count < 0) return null;
    t += 2;
    for (let k = 0; k < count; k++, t += 3) {
      const [off, gen, kind] = [tokens[t], tokens[t + 1], tokens[t + 2]];
      if (off === undefined || gen === undefined || (kind !== 'n' && kind !== 'f')) return null;
      if (kind === 'n') offsets.set(refKey(first + k, gen), Number(off));
    }
  }

  const starts = [...new Set(offsets.values())].sort((a, b) => a - b);
  const nextStart = new Map<number, number>();
  starts.forEach((s, i) => {
    nextStart.set(s, starts[i + 1] ?? xrefAt);
  });
  const objects = new Map<string, PdfObject>();
  for (const [key, offset] of offsets) {
    const head = /^(\d+)\s+(\d+)\s+obj/.exec(buf.toString('latin1', offset, offset + 32));
    if (!head || refKey(head[1] as string, head[2] as string) !== key) return null;
    const limit = nextStart.get(offset) ?? xrefAt;
    const end = buf.lastIndexOf('endobj', limit);
    const start = offset + head[0].length;
    if (end < start) return null;
    objects.set(key, { start, end });
  }

  const textOf = (key: string): string | null => {
    const o = objects.get(key);
    if (!o) return null;
    const text = o && buf.toString('latin1', o.start, o.end);
    const streamAt = scanObject(text, () => '').streamAt;
    return streamAt < 0 ? text : text.slice(0, streamAt);
  };

  const rootKey = refKey(root[1] as string, root[2] as string);
  const catalog = textOf(rootKey);
  if (!catalog || nameValue(catalog, 'Type') !== 'Catalog') return null;
  const pagesRef = /\/Pages\s+(\d+)\s+(\d+)\s+R/.exec(catalog);
  if (!pagesRef) return null;

  const pages: string[] = [];
  const structural = new Set<string>([rootKey]);
  const walk = (key: string, depth: number): boolean => {
    if (depth > 32 || structural.has(key) || pages.includes(key)) return false;
    const dict = textOf(key);
    if (!dict) return false;
    const type = nameValue(dict, 'Type');
    if (type === 'Page') {
      pages.push(key);
      return true;
    }
    if (type !== 'Pages' || INHERITABLE.test(dict)) return false;
    structural.add(key);
    const kids = /\/Kids\s*\[([^\]]*)\]/.exec(dict);
    if (!kids) return false;
    return refsOf(`[${kids[1]}]`).every((r) => walk(r.key, depth + 1));
  };
  if (!walk(refKey(pagesRef[1] as string, pagesRef[2] as string), 0) || pages.length === 0) return null;
  return { buf, objects, pages, structural };
}

/** Writes the pages of every document, in order, under one new page tree. */
function writeMerged(docs: ParsedPdf[]): Buffer | Promise<Buffer> {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]!.length;
  const offsets: number[] = [0];
  // Object 1 is the new page tree, 2 the catalog; copied objects follow from 3.
  const PAGES = 1;
  const CATALOG = 2;
  let nextNumber = 3;
  const kids: number[] = [];
  const push = (b: Buffer) => {
    chunks.push(b);
    length += b.length;
  };
  const writeObject = (num: number, body: Buffer[]) => {
    offsets[num] = length;
    push(Buffer.from(`${num} 0 obj`, 'latin1'));
    for (const b of body) push(b);
    push(Buffer.from('\nendobj\n', 'latin1'));
  };

  // Objects without references or streams (font dictionaries, graphics states) are written once and shared.
  const shared = new Map<string, number>();
  for (const doc of docs) {
    const numbers = new Map<string, number>();
    const queue: string[] = [];
    const leafText = (key: string): string | null => {
      const o = doc.objects.get(key);
      if (!o) return null;
      const text = doc.buf.toString('latin1', o.start, o.end);
      let refs = 0;
      const scanned = scanObject(text, () => {
        refs++;
        return '';
      });
      return refs === 0 && scanned.streamAt < 0 ? text.trim() : null;
    };
    const numberOf = (key: string): number => {
      let num = numbers.get(key);
      if (num !== undefined) return num;
      const leaf = leafText(key);
      const same = leaf === null ? undefined : shared.get(leaf);
      if (same !== undefined) {
        numbers.set(key, same);
        return same;
      }
      num = nextNumber++;
      numbers.set(key, num);
      queue.push(key);
      if (leaf !== null) shared.set(leaf, num);
      return num;
    };
    for (const page of doc.pages) kids.push(numberOf(page));
    const pageSet = new Set(doc.pages);
    let failed = false;
    while (queue.length > 0) {
      const key = queue.shift() as string;
      const o = doc.objects.get(key);
      const num = numbers.get(key) as number;
      if (!o) {
        // A reference to an object the file does not have means null; keep the number pointing at a null.
        writeObject(num, [Buffer.from(' null', 'latin1')]);
        continue;
      }
      const text = doc.buf.toString('latin1', o.start, o.end);
      const isPage = pageSet.has(key);
      const scanned = scanObject(text, (ref, lastName) => {
        if (isPage && lastName === '/Parent') return `${PAGES} 0 R`;
        if (doc.structural.has(ref)) failed = true;
        return `${numberOf(ref)} 0 R`;
      });
      if (failed) return mergeWithPdfLib(docs.map((d) => d.buf));
      const body: Buffer[] = [Buffer.from(scanned.text, 'latin1')];
      if (scanned.streamAt >= 0) body.push(doc.buf.subarray(o.start + scanned.streamAt, o.end));
      writeObject(num, body);
    }
  }

  writeObject(PAGES, [
    Buffer.from(
      `\n<< /Type /Pages /Count ${kids.length} /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] >>`,
      'latin1',
    ),
  ]);
  writeObject(CATALOG, [Buffer.from(`\n<< /Type /Catalog /Pages ${PAGES} 0 R >>`, 'latin1')]);

  const xrefAt = length;
  const size = nextNumber;
  const lines = ['xref', `0 ${size}`, '0000000000 65535 f '];
  for (let num = 1; num < size; num++) {
    const off = offsets[num];
    if (off === undefined) throw new Error(`merged PDF object ${num} was never written`);
    lines.push(`${String(off).padStart(10, '0')} 00000 n `);
  }
  push(
    Buffer.from(
      `${lines.join('\n')}\ntrailer\n<< /Size ${size} /Root ${CATALOG} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(chunks, length);
}
