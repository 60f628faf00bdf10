import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSandboxCarrier } from '@flatship/carriers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fulfilLabel } from '../src/domain/fulfil-label';
import type { CarrierPort } from '../src/domain/ports';
import { reconcilePendingLabels } from '../src/domain/reconcile-pending-labels';
import { createMemoryLedger, createMemoryQuotes } from './in-memory-ports';
import { labelRows, type OrdersHarness, orderBody, outboxRows, postOrder, startOrders, user } from './support';

// The domain against in-memory quote and ledger ports (a real database and sandbox carrier):
// the rules hold whatever answers pricing and payments give.
const quotes = createMemoryQuotes({ 'USPS Priority Mail': { uid: 'usps_priority_mail', priceCents: 725 } });
const ledger = createMemoryLedger();
const sandbox = createSandboxCarrier();
/** The sandbox carrier, with outages (retryable failures) on demand. */
const carrier: CarrierPort & { outages: number; calls: number } = {
  outages: 0,
  calls: 0,
  async purchaseLabel(req) {
    carrier.calls++;
    if (carrier.outages > 0) {
      carrier.outages--;
      return { ok: false, message: 'USPS is not answering right now', retryable: true };
    }
    return sandbox.purchaseLabel(req);
  },
};
let h: OrdersHarness;
beforeAll(async () => {
  h = await startOrders(async () => ({ quotes, ledger, carrier }));
});
afterAll(() => h.close());

const fund = (id: string, cents: number) => ledger.balances.set(id, cents);

describe('single label with in-memory pricing and ledger', () => {
  test('buys, charges the quoted price, stores the PDF and records label.purchased', async () => {
    const u = user(h);
    fund(u.id, 1000);
    const res = await postOrder(h, u, { ...orderBody(u.id), price: 0.01 });
    expect(res.statusCode).toBe(201);
    const { message, data } = res.json();
    expect(message).toBe('Label created successfully');
    expect(data.price).toBe(7.25);
    expect(data.pdfName).toMatch(/^[0-9a-f-]{36}\.pdf$/);
    expect(ledger.balances.get(u.id)).toBe(275);
    const pdf = await readFile(join(h.filesDir, 'labels', u.id, data.pdfName));
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    const [row] = await labelRows(h, u.id);
    expect(row).toMatchObject({ id: data.orderId, status: 'completed', tracking_number: data.tracking_number });
    const events = (await outboxRows(h)).filter((e) => e.key === u.id);
    expect(events).toEqual([
      {
        topic: 'label.purchased',
        key: u.id,
        value: expect.objectContaining({ labelId: data.orderId, priceCents: 725, serviceUid: 'usps_priority_mail' }),
      },
    ]);
  });

  test('a payments outage at charge time leaves a pending row that the reconciler cancels without money moving', async () => {
    const u = user(h);
    fund(u.id, 1000);
    ledger.failNext(1);
    const res = await postOrder(h, u, orderBody(u.id));
    expect(res.statusCode).toBe(503);
    const [row] = await labelRows(h, u.id);
    expect(row).toMatchObject({ status: 'pending', charged_at: null });
    const report = await reconcilePendingLabels(h.domain);
    expect(report.cancelled).toBeGreaterThanOrEqual(1);
    expect((await labelRows(h, u.id))[0]).toMatchObject({ status: 'cancelled', refunded: false });
    expect(ledger.balances.get(u.id)).toBe(1000);
  });

  test('a refund that payments cannot take yet is made by the reconciler, once', async () => {
    const u = user(h);
    fund(u.id, 1000);
    const body = orderBody(u.id, { receiver: { receiver_name: 'FAIL' } });
    // Charge succeeds; the refund after the carrier's refusal fails.
    const charge = ledger.charge.bind(ledger);
    ledger.charge = async (req) => {
      const r = await charge(req);
      ledger.failNext(1);
      return r;
    };
    const res = await postOrder(h, u, body);
    ledger.charge = charge;
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Address validation failed: the recipient address could not be verified.');
    expect(ledger.balances.get(u.id)).toBe(275);
    const [row] = await labelRows(h, u.id);
    expect(row?.status).toBe('pending');
    await Promise.all([reconcilePendingLabels(h.domain), reconcilePendingLabels(h.domain)]);
    await reconcilePendingLabels(h.domain, { leaseMs: 0 });
    // Cancelled as the request meant it to end: with the carrier's refusal, which a retry cannot change.
    expect((await labelRows(h, u.id))[0]).toMatchObject({
      status: 'cancelled',
      refunded: true,
      error: 'Address validation failed: the recipient address could not be verified.',
      retryable: false,
    });
    expect(ledger.balances.get(u.id)).toBe(1000);
    expect(ledger.entries.filter((e) => e.userId === u.id).map((e) => e.kind)).toEqual(['charge', 'refund']);
  });

  test('a carrier outage is retried; one that lasts is refunded and cancelled, never left to sell later', async () => {
    const u = user(h);
    fund(u.id, 2000);
    carrier.outages = 2;
    carrier.calls = 0;
    expect((await postOrder(h, u, orderBody(u.id))).statusCode).toBe(201);
    expect(carrier.calls).toBe(3);

    carrier.outages = 3;
    const res = await postOrder(h, u, orderBody(u.id));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ code: 'ORDERS_CARRIER_FAILED', message: 'USPS is not answering right now' });
    const rows = await labelRows(h, u.id);
    expect(rows.map((r) => [r.status, r.refunded])).toEqual([
      ['completed', false],
      ['cancelled', true],
    ]);
    expect(ledger.balances.get(u.id)).toBe(2000 - 725);
  });

  test('two finishers racing on one label (request and reconciler) complete it once, with one event', async () => {
    const u = user(h);
    fund(u.id, 1000);
    carrier.outages = 100;
    await postOrder(h, u, orderBody(u.id, { receiver: { receiver_name: 'Race' } }));
    carrier.outages = 0;
    // Put the cancelled row back to charged-and-pending, as if the request had died mid-way.
    const [row] = await labelRows(h, u.id);
    await h.db('labels').where({ id: row!.id }).update({ status: 'pending', refunded: false, refund_started_at: null });
    const label = (await h.domain.labels.findById(row!.id))!;
    const outcomes = await Promise.all([
      fulfilLabel(h.domain, label, { keepRetryable: true }),
      fulfilLabel(h.domain, label, { keepRetryable: true }),
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(['completed', 'completed']);
    const done = (await h.domain.labels.findById(row!.id))!;
    expect(outcomes.map((o) => o.kind === 'completed' && o.label.pdfName)).toEqual([done.pdfName, done.pdfName]);
    expect((await outboxRows(h)).filter((e) => e.value.labelId === row!.id)).toHaveLength(1);
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(join(h.filesDir, 'labels', u.id))).toEqual([done.pdfName]);
  });
});
