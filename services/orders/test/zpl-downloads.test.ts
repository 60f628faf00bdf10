import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CARRIER_CAPABILITIES, createSandboxCarrier, type LabelRequest } from '@flatship/carriers';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { type LabelConverter, labelConverter, ZPL_BUSY, ZPL_CONVERSION_FAILED } from '../src/domain/label-formats';
import { boughtBulkOrder } from './bulk-support';
import { fundedUser, type Stack, startStack } from './stack';
import { openDownload, orderBody, postOrder, type TestUser } from './support';

// ZPL made from labels bought as PDFs, through the orders app, with a converter the test counts and holds in place
// of pdftoppm: each label converted once however many ask, at most ZPL_CONVERSIONS at once, a bulk order's file
// prepared in the background with its progress told, one preparation per user.

const sandbox = createSandboxCarrier();
/** A carrier that cannot give ZPL: every ZPL download is a conversion. */
const carrier = {
  capabilities: CARRIER_CAPABILITIES.filter((c) => c !== 'zpl'),
  purchaseLabel: (req: LabelRequest) => sandbox.purchaseLabel(req),
};

const LIMIT = 2;
/** Conversions asked of the converter, by the PDF's hash; at work now; the most ever at work at once. */
const converted: string[] = [];
let converting = 0;
let most = 0;
/** While set, conversions wait in `held` until the test lets them go. */
let holding = false;
let failing = false;
const held: (() => void)[] = [];
const hashOf = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);
const converter: LabelConverter = {
  async pdfToZpl(pdf) {
    converting++;
    most = Math.max(most, converting);
    try {
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      if (failing) throw new Error('pdftoppm: command not found');
      converted.push(hashOf(pdf));
      return Buffer.from(`^XA\n^FO0,0^FD${hashOf(pdf)}^FS\n^XZ\n`);
    } finally {
      converting--;
    }
  },
  letterTwoUp: (pdfs) => labelConverter.letterTwoUp(pdfs),
};
const letGo = (n = held.length) => {
  for (const resolve of held.splice(0, n)) resolve();
};

let s: Stack;
beforeAll(async () => {
  s = await startStack({ carrier, converter, zplConversions: LIMIT });
}, 60_000);
afterAll(() => s?.close());
beforeEach(() => {
  holding = false;
  failing = false;
  letGo();
  converted.length = 0;
  most = 0;
});

const download = (u: TestUser, path: string) => openDownload(s.app, u, path, '&format=zpl-203');
const zplOf = (u: TestUser, orderId: string) => download(u, `/api/orders/download/pdf/${orderId}`);
const POLL = { timeout: 60_000, interval: 20 };
/** Asks for the order's ZPL until it is the file. */
async function ready(u: TestUser, orderId: string) {
  await expect.poll(async () => (await zplOf(u, orderId)).statusCode, POLL).toBe(200);
  return zplOf(u, orderId);
}
/** The hash of each valid row's PDF, in row order: what each block of its ZPL must carry. */
async function rowHashes(u: TestUser, orderId: string): Promise<string[]> {
  const rows = await s.db('labels').where({ bulk_order_id: orderId, status: 'completed' }).orderBy('row_index');
  return rows.map((r) => hashOf(readFileSync(join(s.filesDir, 'labels', u.id, r.pdf_name))));
}
const blocksOf = (zpl: string) => zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];

test("six requests at once for an order's ZPL: 202 with progress, each label converted once, at most ZPL_CONVERSIONS at once, then the file", async () => {
  const u = await fundedUser(s, 1000_00);
  const { orderId } = await boughtBulkOrder(s, u, 6, carrier);
  holding = true;

  const first = await Promise.all(Array.from({ length: 6 }, () => zplOf(u, orderId)));
  for (const res of first) {
    expect(res.statusCode, res.body).toBe(202);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json()).toEqual({ status: 'preparing', done: 0, total: 6, message: 'Preparing ZPL… 0 of 6 labels' });
  }
  // Two conversions at work, the rest waiting for a slot.
  await expect.poll(() => held.length, POLL).toBe(LIMIT);
  expect(converting).toBe(LIMIT);

  letGo(1);
  await expect.poll(async () => (await zplOf(u, orderId)).json().done, POLL).toBe(1);
  await expect.poll(() => held.length, POLL).toBe(LIMIT);
  holding = false;
  letGo();

  const res = await ready(u, orderId);
  expect(res.headers['content-type']).toBe('application/zpl; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Labels_\d\d-\d\d\.zpl"$/);
  const blocks = blocksOf(res.body);
  expect(blocks.map((b) => /\^FD(\w+)\^FS/.exec(b)?.[1])).toEqual(await rowHashes(u, orderId));
  expect(converted.sort()).toEqual((await rowHashes(u, orderId)).sort());
  expect(most).toBe(LIMIT);

  // Asked again: the kept conversions, none made anew.
  expect((await zplOf(u, orderId)).body).toBe(res.body);
  expect(converted).toHaveLength(6);
});

test("one order's ZPL at a time per user: another order of the same user is 429 until it is done; other users are not held up", async () => {
  const u = await fundedUser(s, 1000_00);
  const other = await fundedUser(s, 1000_00);
  const a = await boughtBulkOrder(s, u, 2, carrier);
  const b = await boughtBulkOrder(s, u, 2, carrier);
  const c = await boughtBulkOrder(s, other, 2, carrier);
  holding = true;

  expect((await zplOf(u, a.orderId)).statusCode).toBe(202);
  const busy = await zplOf(u, b.orderId);
  expect(busy.statusCode).toBe(429);
  expect(busy.headers['retry-after']).toBe('2');
  expect(busy.json()).toEqual({ code: 'RATE_LIMITED', message: ZPL_BUSY });
  expect((await zplOf(other, c.orderId)).statusCode).toBe(202);

  holding = false;
  letGo();
  expect(blocksOf((await ready(u, a.orderId)).body)).toHaveLength(2);
  expect(blocksOf((await ready(u, b.orderId)).body)).toHaveLength(2);
  expect(blocksOf((await ready(other, c.orderId)).body)).toHaveLength(2);
  expect(converted).toHaveLength(6);
});

test('a preparation that failed is told once (503 saying what to do); asking again starts afresh', async () => {
  const u = await fundedUser(s, 1000_00);
  const { orderId } = await boughtBulkOrder(s, u, 3, carrier);
  failing = true;
  expect((await zplOf(u, orderId)).statusCode).toBe(202);
  await expect
    .poll(async () => {
      const res = await zplOf(u, orderId);
      return res.statusCode === 503 ? res.json().message : res.statusCode;
    }, POLL)
    .toBe(ZPL_CONVERSION_FAILED);
  failing = false;
  const again = await zplOf(u, orderId);
  expect(again.statusCode).toBe(202);
  expect(blocksOf((await ready(u, orderId)).body)).toHaveLength(3);
});

test("a single label's ZPL asked for four times at once is converted once", async () => {
  const u = await fundedUser(s, 100_00);
  const bought = await postOrder(s, u, orderBody(u.id));
  expect(bought.statusCode, bought.body).toBe(201);
  const path = `/api/orders/download/v2/${bought.json().data.pdfName}`;
  holding = true;
  const answers = Promise.all(Array.from({ length: 4 }, () => download(u, path)));
  await expect.poll(() => held.length, POLL).toBe(1);
  holding = false;
  letGo();
  const all = await answers;
  for (const res of all) {
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(all[0]?.body);
  }
  expect(converted).toHaveLength(1);
});
