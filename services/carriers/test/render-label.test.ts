import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSandboxCarrier, findUspsService, type LabelRequest, renderLabel } from '../src/index';
import { formatWeight } from '../src/label/format';

// Rendered labels are kept as artefacts so a person can look at them (git-ignored).
const ARTEFACTS = fileURLToPath(new URL('../../../test-results/labels/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'carriers-labels-'));

function hasTool(name: string): boolean {
  try {
    execFileSync('which', [name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function writePdf(name: string, pdf: Buffer): string {
  const path = join(scratch, `${name}.pdf`);
  writeFileSync(path, pdf);
  return path;
}

const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });

const REQUEST: LabelRequest = {
  idempotencyKey: 'render-label-test',
  serviceUid: 'usps_priority_mail',
  from: {
    name: 'Acme Widgets',
    company: 'Acme Trading Co',
    street1: '123 Main St',
    street2: 'Suite 400',
    city: 'New York',
    state: 'NY',
    zip: '10001',
    country: 'US',
  },
  to: {
    name: 'Jane Doe',
    company: 'Doe Ceramics',
    street1: '456 Oak Avenue',
    street2: 'Apt 7B',
    city: 'Los Angeles',
    state: 'CA',
    zip: '90001-1234',
    country: 'US',
  },
  parcel: { length: 12, width: 10, height: 6, weightLb: 2.25 },
  references: { quantity: '3', sku: 'MUG-BLU-12', orderId: '114-3941689-8772232' },
  shipDate: new Date('2025-03-04T12:00:00Z'),
};

describe('label PDF', () => {
  let pdf: Buffer;
  let path: string;
  let tracking: string;

  beforeAll(async () => {
    const result = await createSandboxCarrier().purchaseLabel(REQUEST);
    if (!result.ok) throw new Error(result.message);
    pdf = result.pdf;
    tracking = result.trackingNumber;
    path = writePdf('priority-mail', pdf);
  });

  it('is a PDF of exactly one 4x6 inch page', () => {
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 288 432\]/);
    const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/Page size:\s+288 x 432 pts/);
  });

  it('carries the tracking number in groups of four, the addresses and the references as searchable text', () => {
    const text = pdfText(path);
    const grouped = tracking.replace(/(\d{4})(?=\d)/g, '$1 ');
    expect(grouped).toMatch(/^\d{4}( \d{4}){4} \d{2}$/);
    expect(text).toContain(grouped);
    expect(text).toContain('USPS TRACKING #');
    expect(text).toContain('USPS PRIORITY MAIL®');
    expect(text).toContain('JANE DOE');
    expect(text).toContain('DOE CERAMICS');
    expect(text).toContain('LOS ANGELES CA 90001-1234');
    expect(text).toContain('ACME WIDGETS');
    expect(text).toContain('Quantity: 3');
    expect(text).toContain('SKU: MUG-BLU-12');
    expect(text).toContain('Order: 114-3941689-8772232');
    expect(text).toContain('US POSTAGE PAID');
    expect(text).toContain('ZIP 10001');
    expect(text).toContain('03/04/2025');
    expect(text).toContain('2 LBS 4 OZ');
  });

  it('prints each service with its letter, banner and tracking heading, and keeps PNG artefacts', async () => {
    mkdirSync(ARTEFACTS, { recursive: true });
    const expected = {
      usps_priority_mail: ['P', 'USPS PRIORITY MAIL®'],
      usps_ground_advantage: ['G', 'USPS GROUND ADVANTAGE™'],
      usps_priority_mail_express: ['E', 'USPS PRIORITY MAIL EXPRESS®'],
    } as const;
    for (const [uid, [letter, banner]] of Object.entries(expected)) {
      const result = await createSandboxCarrier().purchaseLabel({ ...REQUEST, serviceUid: uid });
      if (!result.ok) throw new Error(result.message);
      const file = writePdf(uid, result.pdf);
      const text = pdfText(file);
      expect(text).toContain(banner);
      expect(text).toMatch(new RegExp(`^\\s*${letter}\\b`, 'm'));
      expect(text).toContain(uid === 'usps_priority_mail_express' ? 'USPS TRACKING # EP' : 'USPS TRACKING #');
      execFileSync('pdftoppm', ['-png', '-r', '150', '-singlefile', file, join(ARTEFACTS, uid)]);
    }
  });

  it.skipIf(!hasTool('zbarimg'))(
    'has a GS1-128 barcode that scans as AI 420 + destination ZIP + tracking number',
    () => {
      const png = join(scratch, 'scan');
      execFileSync('pdftoppm', ['-png', '-r', '300', '-singlefile', path, png]);
      const scanned = execFileSync('zbarimg', ['--quiet', '--raw', `${png}.png`], { encoding: 'utf8' }).trim();
      expect(scanned.replaceAll(String.fromCharCode(0x1d), '')).toBe(`42090001${tracking}`);
    },
  );

  it('renders a long address and a minimal one without losing text', async () => {
    const service = findUspsService('usps_ground_advantage')!;
    const minimal = await renderLabel({
      service,
      trackingNumber: '9300189999900000000012',
      from: { name: 'A', street1: '1 B St', city: 'C', state: 'NY', zip: '10001', country: 'US' },
      to: { name: 'Z', street1: '2 Y Rd', city: 'X', state: 'TX', zip: '73301', country: 'US' },
      weightLb: 0.5,
      shipDate: new Date('2025-01-02T00:00:00Z'),
    });
    const text = pdfText(writePdf('minimal', minimal));
    expect(text).toContain('9300 1899 9990 0000 0000 12');
    expect(text).toContain('8 OZ');
    expect(text).not.toContain('Quantity');
  });
});

describe('weight on the indicia', () => {
  it('states pounds and ounces the way postage indicia do', () => {
    expect(formatWeight(3)).toBe('3 LBS');
    expect(formatWeight(1)).toBe('1 LB');
    expect(formatWeight(2.25)).toBe('2 LBS 4 OZ');
    expect(formatWeight(0.5)).toBe('8 OZ');
    expect(formatWeight(0.01)).toBe('1 OZ');
    expect(formatWeight(1.999)).toBe('2 LBS');
  });
});
