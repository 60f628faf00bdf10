import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CARRIER_CAPABILITIES, createSandboxCarrier, type LabelRequest } from '@flatship/carriers';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ZPL_CONVERSION_FAILED } from '../src/domain/label-formats';
import { boughtBulkOrder } from './bulk-support';
import { fundedUser, type Stack, startStack } from './stack';
import { openDownload, orderBody, postOrder, type TestUser, user } from './support';

// The print setting and the label files it gives: single labels and a bulk order's merged file, in 4x6 PDF,
// two to a letter page and ZPL, from a carrier that gives ZPL (the sandbox) and from one that cannot.

const sandbox = createSandboxCarrier();
/** Whether the carrier offers ZPL now; switched off, it plays a carrier without the capability. */
let givesZpl = true;
const requests: LabelRequest[] = [];
const carrier = {
  get capabilities() {
    return givesZpl ? CARRIER_CAPABILITIES : CARRIER_CAPABILITIES.filter((c) => c !== 'zpl');
  },
  async purchaseLabel(req: LabelRequest) {
    requests.push(req);
    if (!givesZpl && req.formats?.includes('zpl-203')) throw new Error('asked a carrier without ZPL for ZPL');
    return sandbox.purchaseLabel(req);
  },
};

let s: Stack;
const scratch = mkdtempSync(join(tmpdir(), 'orders-print-'));
beforeAll(async () => {
  s = await startStack({ carrier });
});
afterAll(() => s.close());
beforeEach(() => {
  givesZpl = true;
  requests.length = 0;
});

const settingsUrl = (userId: string) => `/api/orders/print-settings/${userId}`;
const getSetting = (u: TestUser, userId = u.id) =>
  s.app.inject({ url: settingsUrl(userId), headers: { token: u.token } });
const putSetting = (u: TestUser, payload: unknown, userId = u.id) =>
  s.app.inject({ method: 'PUT', url: settingsUrl(userId), headers: { token: u.token }, payload: payload as object });

async function setFormat(u: TestUser, labelFormat: string) {
  const res = await putSetting(u, { labelFormat });
  expect(res.statusCode, res.body).toBe(200);
}

const download = (u: TestUser, path: string, query = '') => openDownload(s.app, u, path, query);

async function buySingle(u: TestUser): Promise<{ pdfName: string; tracking: string }> {
  const res = await postOrder(s, u, orderBody(u.id));
  expect(res.statusCode, res.body).toBe(201);
  return { pdfName: res.json().data.pdfName, tracking: res.json().data.tracking_number };
}

const labelFile = (u: TestUser, name: string) => join(s.filesDir, 'labels', u.id, name);
const blocksOf = (zpl: string) => zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];

function pdfInfo(pdf: Buffer): string {
  const file = join(scratch, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdfinfo', [file], { encoding: 'utf8' });
}

describe('GET and PUT /api/orders/print-settings/{userId}', () => {
  test('4x6 PDF until the user chooses; each choice is kept and answered', async () => {
    const u = user(s);
    expect((await getSetting(u)).json()).toEqual({ labelFormat: 'pdf-4x6' });
    for (const labelFormat of ['zpl-203', 'pdf-letter-2up', 'pdf-4x6']) {
      const res = await putSetting(u, { labelFormat });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ labelFormat, message: 'Print setting saved' });
      expect((await getSetting(u)).json()).toEqual({ labelFormat });
    }
  });

  test.each([
    [{ labelFormat: 'pdf' }],
    [{ labelFormat: 'ZPL-203' }],
    [{ labelFormat: 203 }],
    [{ labelFormat: null }],
    [{}],
  ])('anything but a format (%j) is a 400 naming labelFormat, and nothing changes', async (body) => {
    const u = user(s);
    await setFormat(u, 'zpl-203');
    const res = await putSetting(u, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message:
        'labelFormat' in body
          ? 'labelFormat must be one of pdf-4x6, pdf-letter-2up or zpl-203'
          : 'labelFormat is required',
    });
    expect((await getSetting(u)).json()).toEqual({ labelFormat: 'zpl-203' });
  });

  test("someone else's setting is 403 to a user, open to an admin; no token is 401; a bad id is 400", async () => {
    const owner = user(s);
    const other = user(s);
    const admin = user(s, 'admin');
    expect((await getSetting(other, owner.id)).statusCode).toBe(403);
    expect((await putSetting(other, { labelFormat: 'zpl-203' }, owner.id)).statusCode).toBe(403);
    expect((await getSetting(owner)).json()).toEqual({ labelFormat: 'pdf-4x6' });
    expect((await putSetting(admin, { labelFormat: 'zpl-203' }, owner.id)).statusCode).toBe(200);
    expect((await getSetting(admin, owner.id)).json()).toEqual({ labelFormat: 'zpl-203' });
    expect((await s.app.inject({ url: settingsUrl(owner.id) })).statusCode).toBe(401);
    expect((await getSetting(owner, 'not-a-user-id')).statusCode).toBe(400);
  });
});

describe('a single label in each format', () => {
  test("ZPL: bought with the carrier's ZPL, downloaded as a .zpl whose barcode is the label's", async () => {
    const u = await fundedUser(s, 100_00);
    await setFormat(u, 'zpl-203');
    const { pdfName, tracking } = await buySingle(u);
    expect(requests.at(-1)?.formats).toEqual(['pdf-4x6', 'zpl-203']);
    expect(existsSync(labelFile(u, pdfName.replace('.pdf', '.zpl')))).toBe(true);

    const res = await download(u, `/api/orders/download/v2/${pdfName}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zpl; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`inline; filename="label-${tracking}.zpl"`);
    const zpl = res.body;
    expect(blocksOf(zpl)).toHaveLength(1);
    expect(zpl).toContain('^PW812');
    expect(zpl).toContain(`^BCN,190,N,N,N,N^FD>;>842090001>8${tracking}^FS`);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  });

  test('ZPL from a carrier without it: not asked for, the PDF converted once and kept', async () => {
    givesZpl = false;
    const u = await fundedUser(s, 100_00);
    await setFormat(u, 'zpl-203');
    const { pdfName } = await buySingle(u);
    expect(requests.at(-1)?.formats).toBeUndefined();
    const kept = labelFile(u, pdfName.replace('.pdf', '.zpl'));
    expect(existsSync(kept)).toBe(false);

    const first = await download(u, `/api/orders/download/v2/${pdfName}`);
    expect(first.statusCode).toBe(200);
    expect(first.body).toMatch(/^\^XA\n\^PW812\n\^LL1218\n\^LH0,0\n\^FO0,0\^GFA,124236,124236,102,/);
    expect(blocksOf(first.body)).toHaveLength(1);
    expect(existsSync(kept)).toBe(true);
    const again = await download(u, `/api/orders/download/v2/${pdfName}`);
    expect(again.body).toBe(first.body);
  });

  test('without pdftoppm on the server, a ZPL that needs converting is a 503 saying what to do, and nothing is kept', async () => {
    givesZpl = false;
    const u = await fundedUser(s, 100_00);
    await setFormat(u, 'zpl-203');
    const { pdfName } = await buySingle(u);
    const path = process.env.PATH;
    process.env.PATH = scratch;
    try {
      const res = await download(u, `/api/orders/download/v2/${pdfName}`);
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(ZPL_CONVERSION_FAILED);
    } finally {
      process.env.PATH = path;
    }
    expect(existsSync(labelFile(u, pdfName.replace('.pdf', '.zpl')))).toBe(false);
    const pdf = await download(u, `/api/orders/download/v2/${pdfName}`, '&format=pdf-4x6');
    expect(pdf.statusCode).toBe(200);
  });

  test('a label bought as a PDF before the setting changed comes in the new format', async () => {
    const u = await fundedUser(s, 100_00);
    const { pdfName } = await buySingle(u);
    expect(requests.at(-1)?.formats).toBeUndefined();
    await setFormat(u, 'zpl-203');
    const zpl = await download(u, `/api/orders/download/v2/${pdfName}`);
    expect(zpl.headers['content-type']).toMatch(/^application\/zpl/);
    expect(zpl.body).toContain('^GFA,');

    await setFormat(u, 'pdf-letter-2up');
    const letter = await download(u, `/api/orders/download/v2/${pdfName}`);
    expect(letter.headers['content-type']).toBe('application/pdf');
    expect(letter.headers['content-disposition']).toMatch(/filename="label-\d+\.pdf"/);
    const info = pdfInfo(letter.rawPayload);
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);

    await setFormat(u, 'pdf-4x6');
    const pdf = await download(u, `/api/orders/download/v2/${pdfName}`);
    expect(pdfInfo(pdf.rawPayload)).toMatch(/Page size:\s+288 x 432 pts/);
  });

  test('a link may name its format; a format that is none is a 400 naming format', async () => {
    const u = await fundedUser(s, 100_00);
    const { pdfName } = await buySingle(u);
    const named = await download(u, `/api/orders/download/v2/${pdfName}`, '&format=pdf-letter-2up');
    expect(pdfInfo(named.rawPayload)).toMatch(/612 x 792/);
    const bad = await download(u, `/api/orders/download/v2/${pdfName}`, '&format=png');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'format must be one of pdf-4x6, pdf-letter-2up or zpl-203',
    });
  });

  test("an admin's download comes in the admin's own format; another user still gets 404", async () => {
    const u = await fundedUser(s, 100_00);
    const { pdfName } = await buySingle(u);
    const admin = user(s, 'admin');
    await setFormat(admin, 'zpl-203');
    const res = await download(admin, `/api/orders/download/v2/${pdfName}`);
    expect(res.body.startsWith('^XA')).toBe(true);
    const other = user(s);
    await setFormat(other, 'zpl-203');
    const link = await s.app.inject({
      method: 'POST',
      url: '/api/orders/download-token',
      headers: { token: other.token },
      payload: { path: `/api/orders/download/v2/${pdfName}` },
    });
    expect(link.statusCode).toBe(404);
  });
});

describe("a bulk order's merged labels in each format", () => {
  const boughtOrder = (u: TestUser, count: number) => boughtBulkOrder(s, u, count, carrier);

  test('ZPL: one ^XA…^XZ per label in row order, as a .zpl; letter: two per page; 4x6: the merged PDF', async () => {
    const u = await fundedUser(s, 1000_00);
    await setFormat(u, 'zpl-203');
    const { orderId, tracking } = await boughtOrder(u, 5);
    expect(requests.filter((r) => r.formats?.includes('zpl-203'))).toHaveLength(5);

    const zpl = await download(u, `/api/orders/download/pdf/${orderId}`);
    expect(zpl.statusCode).toBe(200);
    expect(zpl.headers['content-type']).toBe('application/zpl; charset=utf-8');
    expect(zpl.headers['content-disposition']).toMatch(/^attachment; filename="Labels_\d\d-\d\d\.zpl"$/);
    const blocks = blocksOf(zpl.body);
    expect(blocks).toHaveLength(5);
    expect(blocks.map((b) => /\^FD>;>8420\d{5}>8(\d+)\^FS/.exec(b)?.[1])).toEqual(tracking);

    await setFormat(u, 'pdf-letter-2up');
    const letter = await download(u, `/api/orders/download/pdf/${orderId}`);
    expect(letter.headers['content-type']).toBe('application/pdf');
    expect(letter.headers['content-disposition']).toMatch(/filename="Labels_\d\d-\d\d\.pdf"/);
    const info = pdfInfo(letter.rawPayload);
    expect(info).toMatch(/Pages:\s+3\n/);
    expect(info).toMatch(/612 x 792 pts \(letter\)/);

    await setFormat(u, 'pdf-4x6');
    const pdf = await download(u, `/api/orders/download/pdf/${orderId}`);
    expect(pdfInfo(pdf.rawPayload)).toMatch(/Pages:\s+5\n[\s\S]*288 x 432 pts/);
    // The other files are what they were.
    await setFormat(u, 'zpl-203');
    const csv = await download(u, `/api/orders/download/result-csv/${orderId}`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
  });

  test('bought as PDFs from a carrier without ZPL, then printed as ZPL: every row converted, in row order', async () => {
    givesZpl = false;
    const u = await fundedUser(s, 1000_00);
    const { orderId } = await boughtOrder(u, 3);
    await setFormat(u, 'zpl-203');
    // Converting takes a while: the file is prepared in the background, and asked for again until it is ready.
    const first = await download(u, `/api/orders/download/pdf/${orderId}`);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({ status: 'preparing', done: 0, total: 3 });
    await expect
      .poll(async () => (await download(u, `/api/orders/download/pdf/${orderId}`)).statusCode, { timeout: 60_000 })
      .toBe(200);
    const res = await download(u, `/api/orders/download/pdf/${orderId}`);
    const blocks = blocksOf(res.body);
    expect(blocks).toHaveLength(3);
    expect(blocks.every((b) => b.includes('^GFA,124236,124236,102,'))).toBe(true);
    // Each block is its row's label: the kept conversion of that row's PDF, in row order.
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    const { readFileSync } = await import('node:fs');
    expect(blocks.map((b) => `${b}\n`)).toEqual(
      rows.map((r) => readFileSync(labelFile(u, r.pdf_name.replace('.pdf', '.zpl')), 'utf8')),
    );
  });
});
