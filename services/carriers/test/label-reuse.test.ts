import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { findUspsService, renderLabel } from '../src/index';
import { impbBarcode, impbBarcodeByBwip } from '../src/label/barcode';
import type { LabelData } from '../src/label/label-data';

// What a label keeps from one document to the next (font metrics, the barcode's symbol table) must never carry
// one label's data into another: each label prints its own text and barcode whatever was rendered before it.

const scratch = mkdtempSync(join(tmpdir(), 'carriers-reuse-'));
const hasZbar = (() => {
  try {
    execFileSync('which', ['zbarimg'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

function label(overrides: Partial<LabelData> & { trackingNumber: string }): LabelData {
  const service = findUspsService('usps_priority_mail')!;
  return {
    service: { letter: service.letter, banner: service.banner, trackingBanner: service.trackingBanner },
    from: { name: 'Acme Widgets', street1: '123 Main St', city: 'New York', state: 'NY', zip: '10001', country: 'US' },
    to: { name: 'Jane Doe', street1: '456 Oak Avenue', city: 'Los Angeles', state: 'CA', zip: '90001', country: 'US' },
    weightLb: 2.25,
    shipDate: new Date('2025-03-04T12:00:00Z'),
    ...overrides,
  };
}

const FIRST = label({
  trackingNumber: '9405589999900000000012',
  to: { name: 'Wanda Vale', street1: '9 Willow Way', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
  references: { quantity: '2', sku: 'AVA-WAVE' },
});
const SECOND = label({
  service: (() => {
    const s = findUspsService('usps_ground_advantage')!;
    return { letter: s.letter, banner: s.banner, trackingBanner: s.trackingBanner };
  })(),
  trackingNumber: '9300189999900000000029',
  to: {
    name: 'Tobias Kern',
    company: 'Kern & Sons',
    street1: '77 Avenue of the Americas',
    street2: 'Floor 12',
    city: 'New York',
    state: 'NY',
    zip: '10036-4003',
    country: 'US',
  },
  weightLb: 0.5,
});

function save(name: string, pdf: Buffer): string {
  const path = join(scratch, `${name}.pdf`);
  writeFileSync(path, pdf);
  return path;
}

const text = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });

function png(path: string, dpi: number): Buffer {
  const out = path.replace(/\.pdf$/, `-${dpi}`);
  execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-singlefile', path, out]);
  return readFileSync(`${out}.png`);
}

/** The page's drawing instructions, decompressed: what a viewer paints, without the file's dates. */
function pageContent(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const streams = [...raw.matchAll(/stream\n([\s\S]*?)\nendstream/g)].map((m) =>
    inflateSync(Buffer.from(m[1] as string, 'latin1')).toString('latin1'),
  );
  expect(streams).toHaveLength(1);
  return streams[0] as string;
}

describe('labels rendered one after another', () => {
  it('each carries only its own addresses, service and tracking number', async () => {
    const a = save('first', await renderLabel(FIRST));
    const b = save('second', await renderLabel(SECOND));
    const first = text(a);
    const second = text(b);
    expect(first).toContain('WANDA VALE');
    expect(first).toContain('9405 5899 9990 0000 0000 12');
    expect(first).toContain('USPS PRIORITY MAIL®');
    expect(first).toContain('SKU: AVA-WAVE');
    expect(first).not.toMatch(/TOBIAS|KERN|9300 1899/);
    expect(second).toContain('TOBIAS KERN');
    expect(second).toContain('KERN & SONS');
    expect(second).toContain('NEW YORK NY 10036-4003');
    expect(second).toContain('9300 1899 9990 0000 0000 29');
    expect(second).toContain('USPS GROUND ADVANTAGE™');
    expect(second).toContain('8 OZ');
    expect(second).not.toMatch(/WANDA|AVA-WAVE|9405 5899|Quantity/);
  });

  it.skipIf(!hasZbar)(
    'each barcode scans as its own ZIP and tracking number',
    async () => {
      for (const [name, data] of [
        ['scan-first', FIRST],
        ['scan-second', SECOND],
      ] as const) {
        const path = save(name, await renderLabel(data));
        const out = path.replace(/\.pdf$/, '-300');
        execFileSync('pdftoppm', ['-png', '-r', '300', '-singlefile', path, out]);
        const scanned = execFileSync('zbarimg', ['--quiet', '--raw', `${out}.png`], { encoding: 'utf8' }).trim();
        expect(scanned.replaceAll(String.fromCharCode(0x1d), '')).toBe(
          `420${data.to.zip.slice(0, 5)}${data.trackingNumber}`,
        );
      }
    },
    30_000,
  );

  it('draws a label the same whether it is the first one or follows others', async () => {
    const alone = await renderLabel(SECOND);
    await renderLabel(FIRST);
    await renderLabel(label({ trackingNumber: '9405589999900000000036', weightLb: 70 }));
    const after = await renderLabel(SECOND);
    expect(pageContent(after)).toBe(pageContent(alone));
    expect(png(save('alone', alone), 150).equals(png(save('after', after), 150))).toBe(true);
  }, 30_000);

  it('gives every document its own font objects', async () => {
    const pdf = (await renderLabel(FIRST)).toString('latin1');
    // The two fonts the label uses are defined in this file, as standard Type 1 fonts.
    expect(pdf).toMatch(/\/BaseFont \/Helvetica-Bold/);
    expect(pdf).toMatch(/\/BaseFont \/Helvetica\n/);
    expect(pdf.match(/\/Type \/Font/g)).toHaveLength(2);
  });
});

describe('IMpb barcode encoding', () => {
  it('encodes every tracking number and ZIP as bwip-js does', () => {
    let seed = 7;
    const digit = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return String(seed % 10);
    };
    for (let n = 0; n < 400; n++) {
      const tracking = `9${'2345'[n % 4]}${Array.from({ length: 20 }, digit).join('')}`;
      const zip =
        n % 3 === 0
          ? `${Array.from({ length: 5 }, digit).join('')}-${Array.from({ length: 4 }, digit).join('')}`
          : Array.from({ length: 5 }, digit).join('');
      expect(impbBarcode(tracking, zip)).toEqual(impbBarcodeByBwip(tracking, zip));
    }
  }, 30_000);

  it('leaves data of another shape to bwip-js', () => {
    // A tracking number with an odd number of digits cannot be set in code set C throughout.
    expect(impbBarcode('940558999990000000001', '10001')).toEqual(impbBarcodeByBwip('940558999990000000001', '10001'));
  });
});
