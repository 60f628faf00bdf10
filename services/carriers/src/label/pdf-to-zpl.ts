import { spawn } from 'node:child_process';
import { ZPL_DOTS } from './zpl';

/**
 * A label PDF as ZPL II for a 203 dpi printer, for carriers that give no ZPL of their own: the first page is
 * rasterised to 812 × 1218 dots, one bit per dot, by poppler's `pdftoppm` (a PBM), and sent as one `^GF`
 * graphic field. The printer prints the bitmap as it is, so text and barcode come out as the carrier drew them.
 */
export async function pdfToZpl(pdf: Buffer, opts: { pdftoppm?: string } = {}): Promise<Buffer> {
  return zplFromPbm(await rasterise(pdf, opts.pdftoppm ?? 'pdftoppm'));
}

function rasterise(pdf: Buffer, command: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const args = ['-mono', '-f', '1', '-l', '1', '-singlefile'];
    args.push('-scale-to-x', String(ZPL_DOTS.width), '-scale-to-y', String(ZPL_DOTS.height), '-');
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => reject(new Error(`could not run ${command} to rasterise a label: ${e.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${command} could not rasterise a label (exit ${code}): ${Buffer.concat(err)}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(pdf);
  });
}

/** A binary PBM (P4): width, height and the rows, each padded to a whole byte, 1 for black. */
export function parsePbm(pbm: Buffer): { width: number; height: number; rowBytes: number; bits: Buffer } {
  let at = 0;
  const token = (): string => {
    for (;;) {
      while (at < pbm.length && /\s/.test(String.fromCharCode(pbm[at] as number))) at++;
      if (pbm[at] !== 0x23) break;
      while (at < pbm.length && pbm[at] !== 0x0a) at++;
    }
    const start = at;
    while (at < pbm.length && !/\s/.test(String.fromCharCode(pbm[at] as number))) at++;
    return pbm.toString('latin1', start, at);
  };
  if (token() !== 'P4') throw new Error('not a binary PBM');
  const width = Number(token());
  const height = Number(token());
  at++; // the single whitespace before the bits
  const rowBytes = Math.ceil(width / 8);
  const bits = pbm.subarray(at, at + rowBytes * height);
  if (!(width > 0 && height > 0) || bits.length !== rowBytes * height) throw new Error('truncated PBM');
  return { width, height, rowBytes, bits };
}

/**
 * The bitmap as a ZPL label: `^GFA` in ASCII hex with ZPL's own row compression (`:` repeats the row above,
 * `,` fills the rest of a row with white), which keeps a mostly white label to a few tens of kilobytes.
 */
export function zplFromPbm(pbm: Buffer): Buffer {
  const { width, height, rowBytes, bits } = parsePbm(pbm);
  const total = rowBytes * height;
  const rows: string[] = [];
  let previous: string | null = null;
  for (let y = 0; y < height; y++) {
    const row = bits.subarray(y * rowBytes, (y + 1) * rowBytes);
    let hex = row.toString('hex').toUpperCase();
    if (hex === previous) {
      rows.push(':');
      continue;
    }
    previous = hex;
    const trimmed = hex.replace(/0+$/, '');
    hex = trimmed.length === hex.length ? hex : `${trimmed},`;
    rows.push(hex);
  }
  const lines = [
    '^XA',
    `^PW${width}`,
    `^LL${height}`,
    '^LH0,0',
    `^FO0,0^GFA,${total},${total},${rowBytes},${rows.join('')}^FS`,
  ];
  lines.push('^XZ', '');
  return Buffer.from(lines.join('\n'), 'latin1');
}
