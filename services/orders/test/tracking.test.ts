import { randomUUID } from 'node:crypto';
import { createSandboxCarrier, type TrackingResult } from '@flatship/carriers';
import { REFUND_MESSAGES } from '@flatship/proto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTrackingRepo } from '../src/db/tracking-repo';
import type { CarrierPort } from '../src/domain/ports';
import { checkTracking, type TrackingDeps, type TrackingPolicy } from '../src/domain/tracking';
import { startTrackingChecker } from '../src/jobs/tracking-checker';
import { fundedUser, type Stack, startStack } from './stack';
import { insertLabelRow, orderBody, postOrder, type TestUser, user } from './support';

// Tracking through the orders app on the sandbox carrier, whose journey keeps real hours on a clock the test moves
// (so a parcel moves when the test says, never because the machine was slow), on real PostgreSQL and the real
// payments ledger: the job's pace, the news it keeps, the list's stage and filter, a label's events, and a label
// that moved refused a refund.

const HOUR_MS = 3_600_000;
let ahead = 0;
const sandbox = createSandboxCarrier({ now: () => new Date(Date.now() + ahead) });
/** Tracking numbers asked, in order; `track` is held while `gate` is set. */
const asked: string[] = [];
let gate: Promise<void> | null = null;
const carrier: CarrierPort & Pick<TrackingDeps['carrier'], 'track'> = {
  purchaseLabel: (req) => sandbox.purchaseLabel(req),
  voidLabel: (req) => sandbox.voidLabel!(req),
  refundStatus: (req) => sandbox.refundStatus!(req),
  async track(number, opts): Promise<TrackingResult> {
    asked.push(number);
    if (gate) await gate;
    return sandbox.track!(number, opts);
  },
};

/** Each label at most once a minute in its first week, every 6 hours after, not past 45 days; EasyPost twice a day. */
const POLICY: TrackingPolicy = {
  freshMs: 60_000,
  freshDays: 7,
  oldMs: 6 * 3_600_000,
  maxAgeDays: 45,
  pushedBy: ['easypost'],
  pushedMs: 12 * 3_600_000,
  untrackedBy: ['test-parcel'],
};

let s: Stack;
let deps: TrackingDeps;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  s = await startStack({ carrier });
  const silent = { info() {}, warn() {}, error() {} };
  deps = { tracking: createTrackingRepo(s.db), carrier, logger: silent };
  ann = await fundedUser(s, 500_00);
  bob = await fundedUser(s, 500_00);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sandbox.close();
});
beforeEach(async () => {
  // Each test starts with nothing due: labels of earlier tests were just looked at.
  await s.db('labels').update({ tracking_checked_at: s.db.fn.now() });
  asked.length = 0;
  ahead = 0;
});

async function buy(who = ann): Promise<{ id: string; trackingNumber: string }> {
  const res = await postOrder(s, who, orderBody(who.id));
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().data.orderId, trackingNumber: res.json().data.tracking_number };
}
const list = async (query = '', who = ann) =>
  s.app.inject({ url: `/api/orders/${who.id}${query}`, headers: { token: who.token } });
const listed = async (id: string) =>
  ((await list()).json().orders as { _id: string }[]).find((o) => o._id === id) as Record<string, unknown>;
const events = (id: string, who: TestUser | string = ann) =>
  s.app.inject({
    url: `/api/orders/labels/${id}/tracking`,
    headers: { token: typeof who === 'string' ? who : who.token },
  });
/** Makes a label's last look (and the news it brought) `ms` old, as if that much time had passed since. */
const lookedAt = (id: string, msAgo: number) => {
  const then = s.db.raw('now() - make_interval(secs => ?)', [msAgo / 1000]);
  return s.db('labels').where({ id }).update({ tracking_checked_at: then, tracking_updated_at: then });
};

describe('the tracking job on the sandbox', () => {
  test('keeps a new label’s news, asks again only once its interval has passed, and sees it move', async () => {
    const label = await buy();
    expect(await listed(label.id)).toMatchObject({ trackingStage: 'pre_transit', refundable: true });

    const first = await checkTracking(deps, POLICY, 50);
    expect(first).toMatchObject({ checked: 1, failed: 0, deferred: 0 });
    expect(asked).toEqual([label.trackingNumber]);
    const row = await s.db('labels').where({ id: label.id }).first();
    expect(row).toMatchObject({ tracking_status: 'pre_transit' });
    expect(row.tracking_events).toEqual([
      expect.objectContaining({ description: expect.stringMatching(/Label Created/) }),
    ]);

    // Asked a moment ago: not again within the minute, however often the job runs.
    expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 0 });
    expect(asked).toHaveLength(1);

    // 21 journey hours later USPS has the parcel; once the minute has passed, the job hears of it.
    ahead = 21 * HOUR_MS;
    expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 0 });
    await lookedAt(label.id, 61_000);
    expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 1, moved: 1 });
    expect(await listed(label.id)).toMatchObject({
      trackingStage: 'in_transit',
      refundable: false,
      refundBlockedReason: REFUND_MESSAGES.used,
    });

    // Used: the refund is refused with the reason, and nothing is sent to the carrier.
    const refund = await s.app.inject({
      method: 'POST',
      url: `/api/orders/labels/${label.id}/refund`,
      headers: { token: ann.token },
    });
    expect(refund.statusCode).toBe(409);
    expect(refund.json()).toEqual({ code: 'ORDERS_LABEL_USED', message: REFUND_MESSAGES.used });

    const res = await events(label.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      labelId: label.id,
      trackingNumber: label.trackingNumber,
      stage: 'in_transit',
      detail: null,
      estimatedDelivery: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      updatedAt: expect.any(String),
    });
    expect(res.json().events).toEqual([
      {
        at: expect.any(String),
        stage: 'in_transit',
        description: 'USPS in possession of item',
        place: 'NEW YORK, NY 10001',
      },
      {
        at: expect.any(String),
        stage: 'pre_transit',
        description: 'Shipping Label Created, USPS Awaiting Item',
        place: '',
      },
    ]);
    const [newest, oldest] = res.json().events as { at: string }[];
    expect(Date.parse(newest!.at)).toBeGreaterThan(Date.parse(oldest!.at));

    // Delivered after 72 journey hours: no expected date any more, and never asked again.
    ahead = 73 * HOUR_MS;
    await lookedAt(label.id, 61_000);
    expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 1, moved: 1 });
    expect((await events(label.id)).json()).toMatchObject({ stage: 'delivered', estimatedDelivery: null });
    await lookedAt(label.id, 100 * 86_400_000);
    expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 0 });
  });

  test('asks new labels hourly-ish, older ones less, EasyPost’s rarely, and never refunded, delivered, old or untrackable ones', async () => {
    const u = user(s);
    const day = 86_400_000;
    const row = async (name: string, at: number, set: Record<string, unknown> = {}) => {
      const id = await insertLabelRow(s.db, {
        userId: u.id,
        status: 'completed',
        priceCents: 800,
        at: new Date(Date.now() - at),
      });
      await s
        .db('labels')
        .where({ id })
        .update({ tracking_number: name, ...set });
      return id;
    };
    const ago = (ms: number) => s.db.raw('now() - make_interval(secs => ?)', [ms / 1000]);
    await row('NEW-NEVER-ASKED', 0);
    await row('NEW-ASKED-2-MIN-AGO', 3_600_000, { tracking_checked_at: ago(120_000) });
    await row('NEW-ASKED-30-S-AGO', 3_600_000, { tracking_checked_at: ago(30_000) });
    await row('OLD-ASKED-7-H-AGO', 10 * day, { tracking_checked_at: ago(7 * 3_600_000) });
    await row('OLD-ASKED-2-H-AGO', 10 * day, { tracking_checked_at: ago(2 * 3_600_000) });
    await row('TOO-OLD', 50 * day);
    await row('DELIVERED', 0, { tracking_status: 'delivered' });
    await row('TEST-PARCEL', 0, { carrier_id: 'test-parcel' });
    await row('EASYPOST-WEBHOOK-1-H-AGO', 0, { carrier_id: 'easypost', tracking_updated_at: ago(3_600_000) });
    await row('EASYPOST-WEBHOOK-13-H-AGO', day, { carrier_id: 'easypost', tracking_updated_at: ago(13 * 3_600_000) });
    const voided = await insertLabelRow(s.db, { userId: u.id, status: 'completed', priceCents: 800, at: new Date() });
    await s.db('labels').where({ id: voided }).update({
      tracking_number: 'REFUNDED',
      status: 'void',
      voided_at: s.db.fn.now(),
      voided_by: u.id,
      refund_status: 'refunded',
      refund_requested_at: s.db.fn.now(),
      refund_requested_by: u.id,
    });

    const round = await checkTracking(deps, POLICY, 50);
    // Never heard of first, then the longest unheard of.
    expect(asked).toEqual(['NEW-NEVER-ASKED', 'EASYPOST-WEBHOOK-13-H-AGO', 'OLD-ASKED-7-H-AGO', 'NEW-ASKED-2-MIN-AGO']);
    // The sandbox knows none of these numbers: each is a failed ask that stops nothing.
    expect(round).toMatchObject({ checked: 4, failed: 4, deferred: 0 });
  });

  test('a round takes at most its batch, and two replicas at once never ask about one label twice', async () => {
    const labels = await Promise.all(Array.from({ length: 6 }, () => buy(bob)));
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    const a = checkTracking(deps, POLICY, 4);
    const b = checkTracking(deps, POLICY, 4);
    await expect.poll(() => asked.length).toBeGreaterThanOrEqual(2);
    gate = null;
    open();
    const rounds = await Promise.all([a, b]);
    // However the two split the six labels, neither took more than its four, and each label was asked once.
    for (const r of rounds) expect(r.checked).toBeLessThanOrEqual(4);
    expect(rounds[0]!.checked + rounds[1]!.checked).toBe(6);
    expect([...asked].sort()).toEqual(labels.map((l) => l.trackingNumber).sort());
  });
});

describe('the tracking job', () => {
  test('runs rounds on its interval and keeps each label’s news as it moves', async () => {
    const label = await buy();
    const job = startTrackingChecker(deps, { intervalMs: 50, batch: 10, policy: { ...POLICY, freshMs: 200 } });
    try {
      await expect
        .poll(async () => (await s.db('labels').where({ id: label.id }).first()).tracking_status)
        .toBe('pre_transit');
      ahead = 21 * HOUR_MS;
      await expect
        .poll(async () => (await s.db('labels').where({ id: label.id }).first()).tracking_status)
        .toBe('in_transit');
    } finally {
      await job.stop();
    }
    expect(asked.filter((n) => n === label.trackingNumber).length).toBeGreaterThanOrEqual(2);
  });
});

describe('GET /api/orders/{userId}?tracking=', () => {
  test('lists only the labels at that stage; a stage that does not exist is refused naming the filter', async () => {
    const u = await fundedUser(s, 100_00);
    const moving = await buy(u);
    const waiting = await buy(u);
    await s.db('labels').where({ id: moving.id }).update({ tracking_status: 'out_for_delivery' });
    const ids = async (query: string) => {
      const res = await list(query, u);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().orders as { _id: string; trackingStage: string }[]).map((o) => [o._id, o.trackingStage]);
    };
    expect(await ids('?tracking=out_for_delivery')).toEqual([[moving.id, 'out_for_delivery']]);
    expect(await ids('?tracking=pre_transit')).toEqual([[waiting.id, 'pre_transit']]);
    expect(await ids('?tracking=delivered')).toEqual([]);
    expect(await ids('')).toHaveLength(2);
    // The exceptions: a parcel waiting at the post office, going back, or not delivered.
    await s.db('labels').where({ id: moving.id }).update({ tracking_status: 'return_to_sender' });
    expect(await ids('?tracking=exception')).toEqual([[moving.id, 'exception']]);

    const bad = await list('?tracking=lost', u);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      code: 'BAD_REQUEST',
      message:
        'The tracking filter "lost" is not a tracking status; use one of pre_transit, in_transit, out_for_delivery, delivered, exception.',
    });
    expect((await list(`?tracking=${'x'.repeat(101)}`, u)).json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    // Someone else's list is refused however it is filtered.
    const others = await s.app.inject({
      url: `/api/orders/${u.id}?tracking=pre_transit`,
      headers: { token: bob.token },
    });
    expect(others.statusCode).toBe(403);
  });
});

describe('GET /api/orders/labels/{labelId}/tracking', () => {
  test('is the owner’s or an admin’s; anyone else is told the label does not exist', async () => {
    const label = await buy();
    expect((await events(label.id)).json()).toMatchObject({ stage: 'pre_transit', events: [] });
    expect((await events(label.id, bob)).statusCode).toBe(404);
    expect((await events(label.id, bob)).json()).toEqual({ code: 'NOT_FOUND', message: 'Label not found' });
    expect((await events(randomUUID())).statusCode).toBe(404);
    const bad = await events('not-a-label');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await events(label.id, user(s, 'admin'))).statusCode).toBe(200);
    expect((await s.app.inject({ url: `/api/orders/labels/${label.id}/tracking` })).statusCode).toBe(401);
  });

  test('a label that was never bought has nothing to track', async () => {
    const res = await postOrder(s, ann, orderBody(ann.id, { receiver: { receiver_name: 'FAIL' } as never }));
    expect(res.statusCode).not.toBe(201);
    const failed = await s.db('labels').where({ user_id: ann.id, status: 'cancelled' }).first('id');
    expect((await events(failed.id)).json()).toMatchObject({ stage: null, events: [], estimatedDelivery: null });
    expect(await listed(failed.id)).toMatchObject({ trackingStage: null });
  });
});
