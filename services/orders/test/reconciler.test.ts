import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chargeKeyFor } from '../src/domain/create-label';
import { reconcilePendingLabels } from '../src/domain/reconcile-pending-labels';
import { validateOrderBody } from '../src/domain/validate-shipment';
import { type Stack, startStack } from './stack';
import { labelRows, orderBody, outboxRows, user } from './support';

let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(() => s.close());

/**
 * Leaves the state a crash would: a pending row that no purchase holds, optionally
 * charged in payments, optionally confirmed as charged on the row. Just now: the
 * reconciler does not wait for a row to age.
 */
async function crashedLabel(opts: { charged: boolean; confirmed: boolean; receiver?: string }) {
  const u = user(s);
  await s.setBalance(u.id, 2000);
  const v = validateOrderBody(orderBody(u.id, { receiver: { receiver_name: opts.receiver ?? 'Bob' } }));
  if (!v.ok) throw new Error(v.errors.join());
  const id = randomUUID();
  const inserted = await s.domain.labels.insertPending({
    id,
    userId: u.id,
    idempotencyKey: randomUUID(),
    courier: 'usps',
    serviceUid: 'usps_priority_mail',
    serviceName: 'USPS Priority Mail',
    sender: v.shipment.sender,
    receiver: v.shipment.receiver,
    parcel: v.shipment.parcel,
    priceCents: 895,
    chargeKey: chargeKeyFor(id),
  });
  if (!inserted.ok) throw new Error('not inserted');
  if (opts.charged) await s.domain.ledger.charge({ userId: u.id, amountCents: 895, key: chargeKeyFor(id) });
  if (opts.confirmed) await s.domain.labels.markCharged(id);
  return { u, id };
}

const money = async (userId: string) => ({
  balance: await s.balanceCents(userId),
  kinds: (await s.ledgerEntries(userId)).map((e) => e.kind),
});

describe('reconciler', () => {
  test('finishes a charged pending label exactly once, even when runs overlap', async () => {
    const { u, id } = await crashedLabel({ charged: true, confirmed: true });
    const reports = await Promise.all([
      reconcilePendingLabels(s.domain),
      reconcilePendingLabels(s.domain),
      reconcilePendingLabels(s.domain),
    ]);
    expect(reports.reduce((n, r) => n + r.completed, 0)).toBe(1);
    // Later runs, even with no lease in the way, find nothing left to do.
    expect(await reconcilePendingLabels(s.domain, { leaseMs: 0 })).toEqual({
      completed: 0,
      cancelled: 0,
      stillPending: 0,
    });

    const [row] = await labelRows(s, u.id);
    expect(row).toMatchObject({ id, status: 'completed', refunded: false });
    const pdf = await readFile(join(s.filesDir, 'labels', u.id, row!.pdf_name!));
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    expect(await money(u.id)).toEqual({ balance: 2000 - 895, kinds: ['admin_adjustment', 'label_charge'] });
    expect((await outboxRows(s)).filter((e) => e.key === u.id)).toHaveLength(1);
  });

  test('a row not confirmed as charged is refunded if payments took the money, and cancelled', async () => {
    const { u, id } = await crashedLabel({ charged: true, confirmed: false });
    await reconcilePendingLabels(s.domain);
    await reconcilePendingLabels(s.domain, { leaseMs: 0 });
    expect((await labelRows(s, u.id))[0]).toMatchObject({ id, status: 'cancelled', refunded: true });
    expect(await money(u.id)).toEqual({ balance: 2000, kinds: ['admin_adjustment', 'label_charge', 'label_refund'] });
  });

  test('a row never charged is cancelled and moves no money', async () => {
    const { u, id } = await crashedLabel({ charged: false, confirmed: false });
    await reconcilePendingLabels(s.domain);
    expect((await labelRows(s, u.id))[0]).toMatchObject({ id, status: 'cancelled', refunded: false });
    expect(await money(u.id)).toEqual({ balance: 2000, kinds: ['admin_adjustment'] });
  });

  test('a charged row the carrier refuses is refunded and cancelled', async () => {
    const { u, id } = await crashedLabel({ charged: true, confirmed: true, receiver: 'FAIL' });
    await reconcilePendingLabels(s.domain);
    expect((await labelRows(s, u.id))[0]).toMatchObject({ id, status: 'cancelled', refunded: true });
    expect(await money(u.id)).toEqual({ balance: 2000, kinds: ['admin_adjustment', 'label_charge', 'label_refund'] });
  });

  test('a row held by the purchase at work on it is left alone, however old; the first run after it lets go settles it', async () => {
    const { u, id } = await crashedLabel({ charged: true, confirmed: true });
    await s
      .db('labels')
      .where({ id })
      .update({ updated_at: s.db.raw("now() - interval '1 day'") });
    const hold = await s.domain.purchaseLocks.tryHold(id);
    expect(hold).not.toBeNull();
    // Nor can anyone else take it while it is held, and the reconciler does not even list it.
    expect(await s.domain.purchaseLocks.tryHold(id)).toBeNull();
    expect((await s.domain.labels.listUnheldPending(1000)).map((r) => r.id)).not.toContain(id);
    await reconcilePendingLabels(s.domain);
    expect((await labelRows(s, u.id))[0]).toMatchObject({ id, status: 'pending' });

    await hold!.release();
    expect((await s.domain.labels.listUnheldPending(1000)).map((r) => r.id)).toContain(id);
    await reconcilePendingLabels(s.domain);
    expect((await labelRows(s, u.id))[0]).toMatchObject({ id, status: 'completed' });
    expect(await money(u.id)).toEqual({ balance: 2000 - 895, kinds: ['admin_adjustment', 'label_charge'] });
  });

  test('a row whose refund was begun is only refunded and cancelled, never bought', async () => {
    const { u, id } = await crashedLabel({ charged: true, confirmed: true });
    // Cut off between the refund and the cancellation.
    expect(
      await s.domain.labels.startRefund(id, {
        errorCode: 'ORDERS_CARRIER_FAILED',
        error: 'Address validation failed',
        retryable: false,
      }),
    ).toBe(true);
    await s.domain.ledger.refund({ userId: u.id, amountCents: 895, key: `refund:${id}`, chargeKey: chargeKeyFor(id) });

    expect(await reconcilePendingLabels(s.domain)).toMatchObject({ cancelled: 1 });
    expect((await labelRows(s, u.id))[0]).toMatchObject({
      id,
      status: 'cancelled',
      refunded: true,
      error: 'Address validation failed',
      pdf_name: null,
    });
    expect(await money(u.id)).toEqual({ balance: 2000, kinds: ['admin_adjustment', 'label_charge', 'label_refund'] });
  });
});
