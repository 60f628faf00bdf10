import { createSandboxCarrier, type VoidRequest } from '@flatship/carriers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CarrierPort } from '../src/domain/ports';
import { checkRefunds } from '../src/domain/refunds';
import { type Stack, startStack } from './stack';
import { loginAs, orderBody, outboxRows, postOrder, type TestUser, user } from './support';

// A customer's refunds of unused labels, through the orders app, on the sandbox carrier (with a switch that makes it
// unreachable) and the real payments ledger: the states, the window, the money once, and the status job.

const sandbox = createSandboxCarrier();
let unreachable = false;
/** While set, voids wait for it: a refund request caught while its carrier is still answering. */
let gate: Promise<void> | null = null;
const voids: VoidRequest[] = [];
const carrier: CarrierPort = {
  purchaseLabel: (req) => sandbox.purchaseLabel(req),
  async voidLabel(req) {
    voids.push(req);
    if (gate) await gate;
    if (unreachable) throw new Error('connect ECONNREFUSED');
    return sandbox.voidLabel!(req);
  },
  async refundStatus(req) {
    if (unreachable) return { ok: false, message: 'USPS could not be reached.', retryable: true };
    return sandbox.refundStatus!(req);
  },
};

let s: Stack;
let ann: TestUser;
let bob: TestUser;

const refund = (id: string, as: TestUser | string = ann) =>
  s.app.inject({
    method: 'POST',
    url: `/api/orders/labels/${id}/refund`,
    headers: { token: typeof as === 'string' ? as : as.token },
  });
async function buy(service = 'USPS Priority Mail', who = ann): Promise<{ id: string; priceCents: number }> {
  const res = await postOrder(s, who, orderBody(who.id, { service_name: service }));
  expect(res.statusCode, res.body).toBe(201);
  const row = await s.db('labels').where({ id: res.json().data.orderId }).first();
  return { id: row.id, priceCents: row.price_cents };
}
const listed = async (id: string, who = ann) =>
  (
    (await s.app.inject({ url: `/api/orders/${who.id}`, headers: { token: who.token } })).json().orders as {
      _id: string;
    }[]
  ).find((o) => o._id === id);
const refundEntries = async (labelId: string) =>
  (await s.ledgerEntries(ann.id)).filter((e) => e.idempotency_key === `refund:${labelId}`);

beforeAll(async () => {
  s = await startStack({ carrier });
  ann = user(s);
  bob = user(s);
  await s.setBalance(ann.id, 500_00);
  await s.setBalance(bob.id, 500_00);
}, 60_000);
afterAll(() => s?.close());

describe('POST /api/orders/labels/{labelId}/refund', () => {
  test('an unused label is voided at its carrier, credited once as a ledger entry keyed to it, and shown refunded', async () => {
    const label = await buy();
    expect(await listed(label.id)).toMatchObject({ refundStatus: null, refundable: true, refundBlockedReason: null });
    const before = await s.balanceCents(ann.id);

    const res = await refund(label.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: `Refunded. $${(label.priceCents / 100).toFixed(2)} is back on the balance.`,
      labelId: label.id,
      refundStatus: 'refunded',
      refundReason: null,
      credited: label.priceCents / 100,
    });
    expect(voids.at(-1)).toMatchObject({ idempotencyKey: label.id, trackingNumber: expect.stringMatching(/^\d{22}/) });
    expect(await s.balanceCents(ann.id)).toBe(before + label.priceCents);
    expect(await refundEntries(label.id)).toEqual([
      { kind: 'label_refund', amount_cents: String(label.priceCents), idempotency_key: `refund:${label.id}` },
    ]);
    expect(await listed(label.id)).toMatchObject({ status: 'void', refundStatus: 'refunded', refundable: false });
    const row = await s.db('labels').where({ id: label.id }).first();
    expect(row).toMatchObject({ refund_requested_by: ann.id, refund_by_admin: false, voided_by: ann.id });

    const again = await refund(label.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'ORDERS_LABEL_ALREADY_REFUNDED', message: 'Label already refunded' });
    expect(await s.balanceCents(ann.id)).toBe(before + label.priceCents);
  });

  test('ten requests at once (a double click, two tabs) credit once and publish label.refunded once', async () => {
    const label = await buy();
    const before = await s.balanceCents(ann.id);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(label.id)));
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    expect(answers.filter((a) => a.statusCode === 200).map((a) => a.json().refundStatus)).toContain('refunded');
    expect(await s.balanceCents(ann.id)).toBe(before + label.priceCents);
    expect(await refundEntries(label.id)).toHaveLength(1);
    const events = (await outboxRows(s)).filter((e) => e.topic === 'label.refunded' && e.value.labelId === label.id);
    expect(events).toHaveLength(1);
  });

  test('someone else’s label is not found; an admin may ask for it, recorded as the admin', async () => {
    const label = await buy();
    expect((await refund(label.id, bob)).json()).toEqual({ code: 'NOT_FOUND', message: 'Label not found' });
    expect((await refund(label.id, bob)).statusCode).toBe(404);
    expect((await refund('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await refund('not-a-label')).statusCode).toBe(400);
    const admin = user(s, 'admin');
    const res = await refund(label.id, admin);
    expect(res.statusCode, res.body).toBe(200);
    const row = await s.db('labels').where({ id: label.id }).first();
    expect(row).toMatchObject({ refund_status: 'refunded', refund_requested_by: admin.id, refund_by_admin: true });
    const entry = await s
      .paymentsDb('ledger_entries')
      .where({ idempotency_key: `refund:${label.id}` })
      .first();
    expect(entry).toMatchObject({ admin_id: admin.id, kind: 'label_refund' });
  });

  test('an admin visiting as a customer (Login As) refunds that customer’s labels only, recorded as the admin', async () => {
    const annLabel = await buy();
    const bobLabel = await buy('USPS Priority Mail', bob);
    const admin = user(s, 'admin');
    const asBob = loginAs(s, admin, bob);
    const annBefore = await s.balanceCents(ann.id);

    const other = await refund(annLabel.id, asBob);
    expect(other.statusCode, other.body).toBe(404);
    expect(other.json()).toEqual({ code: 'NOT_FOUND', message: 'Label not found' });
    expect(await s.db('labels').where({ id: annLabel.id }).first()).toMatchObject({
      status: 'completed',
      refund_status: null,
    });
    expect(await s.balanceCents(ann.id)).toBe(annBefore);
    // Nor through the admins' route: the visit is the customer's, not the admin's.
    const asAdmin = await s.app.inject({
      method: 'POST',
      url: `/api/orders/admin/labels/${annLabel.id}/refund`,
      headers: { token: asBob.token },
    });
    expect(asAdmin.statusCode).toBe(403);
    expect(await s.db('labels').where({ id: annLabel.id }).first()).toMatchObject({ refund_status: null });

    const own = await refund(bobLabel.id, asBob);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ refundStatus: 'refunded' });
    expect(await s.db('labels').where({ id: bobLabel.id }).first()).toMatchObject({
      status: 'void',
      refund_requested_by: admin.id,
      refund_by_admin: true,
    });
  });

  test('a scanned label and one past the window are refused with the reason, and nothing changes', async () => {
    const scanned = await buy();
    await s.db('labels').where({ id: scanned.id }).update({ tracking_status: 'in_transit' });
    expect(await listed(scanned.id)).toMatchObject({
      refundable: false,
      refundBlockedReason: 'USPS has scanned this label, so it was used and cannot be refunded.',
    });
    const used = await refund(scanned.id);
    expect(used.statusCode).toBe(409);
    expect(used.json()).toEqual({
      code: 'ORDERS_LABEL_USED',
      message: 'USPS has scanned this label, so it was used and cannot be refunded.',
    });

    const old = await buy();
    await s
      .db('labels')
      .where({ id: old.id })
      .update({ created_at: new Date(Date.now() - 31 * 86_400_000) });
    const late = await refund(old.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({
      code: 'ORDERS_REFUND_WINDOW_PASSED',
      message: 'Labels can be refunded within 30 days of purchase; this one is older.',
    });
    const rows = await s.db('labels').whereIn('id', [scanned.id, old.id]).select('refund_status', 'status');
    expect(rows).toEqual([
      { refund_status: null, status: 'completed' },
      { refund_status: null, status: 'completed' },
    ]);

    // Never bought: a failed purchase has nothing to void.
    const failed = await postOrder(s, ann, orderBody(ann.id, { receiver: { receiver_name: 'FAIL' } as never }));
    const failedId = (await s.db('labels').where({ user_id: ann.id, status: 'cancelled' }).first())?.id;
    expect(failed.statusCode).not.toBe(201);
    const refused = await refund(failedId);
    expect(refused.json().code).toBe('ORDERS_LABEL_NOT_REFUNDABLE');
  });

  test('a refund the carrier refuses is kept as rejected with its reason; asking again says so', async () => {
    // Two days old: within our window, but the sandbox's tracking has it in transit (we had no news of it yet).
    const label = await buy();
    await s
      .db('labels')
      .where({ id: label.id })
      .update({ created_at: new Date(Date.now() - 2 * 86_400_000) });
    const before = await s.balanceCents(ann.id);
    const res = await refund(label.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      refundStatus: 'rejected',
      refundReason: 'USPS scanned this label, so it was used.',
      message: 'USPS refused the refund. USPS scanned this label, so it was used.',
      credited: 0,
    });
    expect(await listed(label.id)).toMatchObject({
      status: 'completed',
      refundStatus: 'rejected',
      refundReason: 'USPS scanned this label, so it was used.',
      refundable: false,
    });
    const again = await refund(label.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'ORDERS_REFUND_REJECTED',
      message: 'The refund of this label was refused. USPS scanned this label, so it was used.',
    });
    expect(await s.balanceCents(ann.id)).toBe(before);
  });
});

describe('refunds waiting for their carrier', () => {
  test('a refund under review waits, uncredited, until the status job hears it was refunded', async () => {
    // The sandbox puts Express refunds in review, as USPS disputes some.
    const label = await buy('USPS Priority Mail Express');
    const before = await s.balanceCents(ann.id);
    const res = await refund(label.id);
    expect(res.json()).toMatchObject({
      refundStatus: 'requested',
      message: 'Refund requested. USPS is reviewing it; the balance is credited when it is approved.',
      credited: 0,
    });
    expect(await s.balanceCents(ann.id)).toBe(before);
    expect(await listed(label.id)).toMatchObject({ status: 'completed', refundStatus: 'requested', refundable: false });
    const row = await s.db('labels').where({ id: label.id }).first();
    expect(row.refund_ref).toMatch(/^DSP\d{9}$/);

    // Just looked at by the request: the job leaves it for its recheck pause.
    expect((await checkRefunds(s.domain, { recheckMs: 60_000 })).checked).toBe(0);
    const report = await checkRefunds(s.domain, { recheckMs: 0 });
    expect(report).toMatchObject({ refunded: 1 });
    expect(await s.balanceCents(ann.id)).toBe(before + label.priceCents);
    expect(await listed(label.id)).toMatchObject({ status: 'void', refundStatus: 'refunded' });
    // Nothing left to do, and nothing moves twice.
    expect((await checkRefunds(s.domain, { recheckMs: 0 })).checked).toBe(0);
    expect(await refundEntries(label.id)).toHaveLength(1);
  });

  test('a carrier that cannot be reached leaves the refund requested; the job sends it again and credits once', async () => {
    const label = await buy();
    const before = await s.balanceCents(ann.id);
    unreachable = true;
    try {
      const res = await refund(label.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        refundStatus: 'requested',
        message: 'USPS could not be reached to void the label. The refund is requested and will be sent again shortly.',
      });
      expect((await checkRefunds(s.domain, { recheckMs: 0 })).waiting).toBeGreaterThanOrEqual(1);
    } finally {
      unreachable = false;
    }
    const sent = voids.length;
    await checkRefunds(s.domain, { recheckMs: 0 });
    // Never answered, so sent again as a void (not asked about).
    expect(voids.length).toBe(sent + 1);
    expect(await s.balanceCents(ann.id)).toBe(before + label.priceCents);
    expect(await listed(label.id)).toMatchObject({ refundStatus: 'refunded' });
  });

  test('the status job leaves a refund alone while its request is still asking the carrier', async () => {
    const label = await buy();
    let open!: () => void;
    gate = new Promise<void>((r) => {
      open = r;
    });
    const sent = voids.length;
    const asking = refund(label.id);
    try {
      await expect.poll(() => voids.length).toBe(sent + 1);
      expect((await checkRefunds(s.domain, { recheckMs: 0 })).checked).toBe(0);
    } finally {
      gate = null;
      open();
    }
    expect((await asking).json()).toMatchObject({ refundStatus: 'refunded' });
    expect(voids.length).toBe(sent + 1);
    expect(await refundEntries(label.id)).toHaveLength(1);
  });

  test('a crash after the carrier confirmed, or after the money moved, is finished without a second credit', async () => {
    // Cut off after the carrier said refunded: confirmed, not yet credited.
    const confirmed = await buy();
    // Cut off after the money came back, before the void was written.
    const credited = await buy();
    const before = await s.balanceCents(ann.id);
    for (const id of [confirmed.id, credited.id]) {
      await s.db('labels').where({ id }).update({
        refund_status: 'requested',
        refund_requested_at: new Date(),
        refund_requested_by: ann.id,
        refund_answered_at: new Date(),
        refund_confirmed_at: new Date(),
      });
    }
    const row = await s.db('labels').where({ id: credited.id }).first();
    await s.domain.ledger.refund({
      userId: ann.id,
      amountCents: credited.priceCents,
      chargeKey: row.charge_key,
      key: `refund:${credited.id}`,
    });
    const sent = voids.length;
    const report = await checkRefunds(s.domain, { recheckMs: 0 });
    expect(report.refunded).toBe(2);
    // Confirmed refunds are settled without asking the carrier again.
    expect(voids.length).toBe(sent);
    expect(await s.balanceCents(ann.id)).toBe(before + confirmed.priceCents + credited.priceCents);
    expect(await refundEntries(confirmed.id)).toHaveLength(1);
    expect(await refundEntries(credited.id)).toHaveLength(1);
  });
});
