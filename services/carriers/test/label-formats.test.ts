import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSandboxCarrier, type LabelRequest, letterTwoUp, parsePbm, pdfToZpl, zplFromPbm } from '../src/index';

// The label in ZPL (the sandbox's own, and one converted from a PDF) and two to a letter page, checked as a
// printer would read them: parsed, rendered offline by zebrash (zpl-renderer-js, WebAssembly) and scanned.

const ARTEFACTS = fileURLToPath(new URL('../../../test-results/labels/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'carriers-formats-'));
const GS = String.fromCharCode(0x1d);

const REQUEST: LabelRequest = {
  idempotencyKey: 'label-formats-test',
  serviceUid: 'usps_ground_advantage',
  from: { name: 'Acme Widgets', street1: '123 Main St', city: 'New York', state: 'NY', zip: '10001', country: 'US' },
  to: {
    name: 'Jane Doe',
    company: 'Doe Ceramics',
    street1: '456 Oak Avenue',
    city: 'Los Angeles',
    state: 'CA',
    zip: '90001-1234',
    country: 'US',
  },
  parcel: { length: 12, width: 10, height: 6, weightLb: 2.25 },
  references: { sku: 'MUG-BLU-12', orderId: '114-3941689-8772232' },
  shipDate: new Date('2025-03-04T12:00:00Z'),
  formats: ['pdf-4x6', 'zpl-203'],
};

/** What a scanner reads from a PNG (FNC1 separators as GS). */
const scan = (png: string) => execFileSync('zbarimg', ['--quiet', '--raw', png], { encoding: 'latin1' }).trim();

function scanPdf(pdf: Buffer, name: string): string {
  const file = join(scratch, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '300', '-singlefile', file, join(scratch, name)]);
  return scan(join(scratch, `${name}.png`));
}

/**
 * Rendering labels to images and scanning them is processor work (seconds on an idle machine): a test doing it gets
 * minutes, so a busy machine finishes it too.
 */
const RENDER_AND_SCAN_MS = 120_000;

/** ZPL rendered to PNG offline, at 203 dpi on a 4x6 label, kept as an artefact; returns what scans from it. */
async function renderAndScan(zpl: Buffer, name: string): Promise<string> {
  const { ready } = await import('zpl-renderer-js');
  const { api } = await ready;
  const png = Buffer.from(await api.zplToBase64Async(zpl.toString('utf8'), 101.6, 152.4, 8), 'base64');
  mkdirSync(ARTEFACTS, { recursive: true });
  writeFileSync(join(ARTEFACTS, `${name}.png`), png);
  return scan(join(ARTEFACTS, `${name}.png`));
}

/** The commands of one ZPL label, `^XX…` each, in order. */
const commandsOf = (zpl: string) =>
  zpl
    .split('^')
    .slice(1)
    .map((c) => `^${c.trim()}`);

/** The data of a `^BC` field as a scanner reports it: Code 128 invocation codes dropped, FNC1 as GS. */
function barcodeData(zpl: string): string {
  const m = /\^BC[^^]*\^FD([^^]*)\^FS/.exec(zpl);
  if (!m) throw new Error('no ^BC field');
  const data = m[1] as string;
  return data
    .replace(/^>;>8/, '')
    .replaceAll('>8', GS)
    .replace(/^>[;:9]/, '');
}

describe('sandbox ZPL', () => {
  let pdf: Buffer;
  let zpl: Buffer;
  let tracking: string;

  beforeAll(async () => {
    const result = await createSandboxCarrier().purchaseLabel(REQUEST);
    if (!result.ok) throw new Error(result.message);
    pdf = result.pdf;
    zpl = result.zpl as Buffer;
    tracking = result.trackingNumber;
  });

  it('is one 4x6 label at 203 dpi with the text fields of the PDF', () => {
    const text = zpl.toString('utf8');
    const commands = commandsOf(text);
    expect(commands[0]).toBe('^XA');
    expect(commands.at(-1)).toBe('^XZ');
    expect(text.match(/\^XA/g)).toHaveLength(1);
    expect(commands).toContain('^PW812');
    expect(commands).toContain('^LL1218');
    const fields = [...text.matchAll(/\^FD([^^]*)\^FS/g)].map((m) => m[1]);
    expect(fields).toEqual(
      expect.arrayContaining([
        'G',
        '03/04/2025',
        '2 LBS 4 OZ',
        'From 10001',
        'Jane Doe',
        'Doe Ceramics',
        '456 Oak Avenue',
        'Los Angeles CA 90001-1234',
        'Acme Widgets',
        tracking.replace(/(\d{4})(?=\d)/g, '$1 '),
      ]),
    );
  });

  it("has a ^BC barcode whose data is the PDF barcode's: AI 420, the ZIP, FNC1, the tracking number", () => {
    const fromPdf = scanPdf(pdf, 'sandbox');
    expect(fromPdf).toBe(`42090001${GS}${tracking}`);
    expect(barcodeData(zpl.toString('utf8'))).toBe(fromPdf);
  });

  it(
    'renders offline to a label whose barcode scans to the same data as the PDF',
    async () => {
      expect(await renderAndScan(zpl, 'sandbox-zpl')).toBe(scanPdf(pdf, 'sandbox-again'));
    },
    RENDER_AND_SCAN_MS,
  );
});

describe('a PDF label converted to ZPL (for carriers without ZPL)', () => {
  it(
    'is one ^GF graphic of 812 × 1218 dots that prints the same barcode',
    async () => {
      const result = await createSandboxCarrier().purchaseLabel({ ...REQUEST, formats: ['pdf-4x6'] });
      if (!result.ok) throw new Error(result.message);
      const zpl = await pdfToZpl(result.pdf);
      const text = zpl.toString('latin1');
      expect(commandsOf(text).slice(0, 4)).toEqual(['^XA', '^PW812', '^LL1218', '^LH0,0']);
      expect(text).toMatch(/\^GFA,124236,124236,102,/);
      expect(text.trimEnd().endsWith('^XZ')).toBe(true);
      // Compressed: a mostly white label is far smaller than its 248 kB of plain hex.
      expect(zpl.length).toBeLessThan(120_000);
      expect(await renderAndScan(zpl, 'converted-zpl')).toBe(`42090001${GS}${result.trackingNumber}`);
    },
    RENDER_AND_SCAN_MS,
  );

  it('encodes bits as given: rows repeated, trailing white compressed, black dots as 1', () => {
    // 10 × 3: a row with the first dot black, the same row again, then a row all black.
    const pbm = Buffer.concat([
      Buffer.from('P4\n# made by hand\n10 3\n', 'latin1'),
      Buffer.from([0x80, 0, 0x80, 0, 0xff, 0xc0]),
    ]);
    expect(parsePbm(pbm)).toMatchObject({ width: 10, height: 3, rowBytes: 2 });
    expect(zplFromPbm(pbm).toString('latin1')).toContain('^GFA,6,6,2,8,:FFC,^FS');
    expect(() => parsePbm(Buffer.from('P4\n10 3\n\x80'))).toThrow('truncated PBM');
  });

  it('says what went wrong when the rasteriser cannot be run', async () => {
    await expect(pdfToZpl(Buffer.from('%PDF-'), { pdftoppm: '/nonexistent/pdftoppm' })).rejects.toThrow(
      /could not run \/nonexistent\/pdftoppm/,
    );
  });
});

describe('letter 2-up', () => {
  it(
    'puts two 4x6 labels on each US Letter page, in order, each scanning',
    async () => {
      const labels = await Promise.all(
        [1, 2, 3].map(async (n) => {
          const r = await createSandboxCarrier().purchaseLabel({ ...REQUEST, idempotencyKey: `two-up-${n}` });
          if (!r.ok) throw new Error(r.message);
          return r;
        }),
      );
      const letter = await letterTwoUp(labels.map((l) => l.pdf));
      const file = join(scratch, 'letter.pdf');
      writeFileSync(file, letter);
      const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
      expect(info).toMatch(/Pages:\s+2\n/);
      expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
      mkdirSync(ARTEFACTS, { recursive: true });
      execFileSync('pdftoppm', ['-png', '-r', '300', file, join(ARTEFACTS, 'letter-2up')]);
      // Both labels of page 1 scan (zbarimg reads every barcode of the page), the third is alone on page 2.
      const page1 = scan(join(ARTEFACTS, 'letter-2up-1.png')).split('\n').sort();
      expect(page1).toEqual([labels[0], labels[1]].map((l) => `42090001${GS}${l?.trackingNumber}`).sort());
      expect(scan(join(ARTEFACTS, 'letter-2up-2.png'))).toBe(`42090001${GS}${labels[2]?.trackingNumber}`);
    },
    RENDER_AND_SCAN_MS,
  );
});
