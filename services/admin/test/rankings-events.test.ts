import { randomUUID } from 'node:crypto';
import { createPostgresBus, migrateBus } from '@flatship/kit/bus';
import { waitFor } from '@flatship/kit/testing';
import { type LabelPurchasedEvent, type LabelRefundedEvent, type RankingsReply, TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createRankingsLabelEventFeed } from '../src/adapters/rankings-label-events';
import { type Registered, register, registerAdmin, type Stack, startStack } from './support';

const NOW = new Date('2026-05-20T12:00:00Z');
let s: Stack;
let admin: Registered;

beforeAll(async () => {
  s = await startStack({ now: () => NOW });
  admin = await registerAdmin(s);
}, 60_000);
afterAll(() => s?.close());

test('label.purchased and label.refunded from the bus keep the ranking current, once per label', async () => {
  await migrateBus(s.adminDb, 'bus');
  const bus = createPostgresBus({ db: s.adminDb, schema: 'bus', pollIntervalMs: 20 });
  const warnings: object[] = [];
  const feed = createRankingsLabelEventFeed(bus, s.rankings, { warn: (obj) => warnings.push(obj) });
  const subscription = await feed.subscribe();
  try {
    const fay = await register(s, 'Fay Ford');
    const userId = fay.user._id;
    const purchase = (labelId: string, cents: number, costCents: number): LabelPurchasedEvent => ({
      userId,
      labelId,
      serviceUid: 'usps_ground_advantage',
      serviceName: 'USPS Ground Advantage',
      priceCents: cents,
      createdAt: '2026-05-19T09:00:00.000Z',
      carrierId: 'easypost',
      carrierCostCents: costCents,
    });
    const [a, b] = [randomUUID(), randomUUID()];
    await bus.publish(TOPICS.labelPurchased, [
      { key: userId, value: purchase(a, 1500, 1210) },
      { key: userId, value: purchase(b, 2500, 2115) },
      // Delivered twice, counted once.
      { key: userId, value: purchase(a, 1500, 1210) },
      { key: userId, value: { userId, labelId: 'x' } },
    ]);
    const month = async () =>
      (
        await s.admin.inject({ url: '/api/admin/user-volume-rankings', headers: { token: admin.token } })
      ).json() as RankingsReply;
    await waitFor('the purchases to rank', async () => (await month()).summary.totalLabels === 2);
    expect((await month()).rankings).toEqual([
      expect.objectContaining({
        userId,
        userName: 'Fay Ford',
        labelCount: 2,
        totalRevenue: 40,
        totalCost: 33.25,
        margin: 6.75,
      }),
    ]);
    expect(warnings).toHaveLength(1);

    const refund: LabelRefundedEvent = { userId, labelId: b, priceCents: 2500, refundedAt: NOW.toISOString() };
    await bus.publish(TOPICS.labelRefunded, [{ key: userId, value: refund }]);
    await waitFor('the refund to count', async () => (await month()).summary.totalLabels === 1);
    // The refunded label's cost goes with it: the carrier gave it back too.
    expect((await month()).summary).toEqual({
      uniqueUsers: 1,
      totalLabels: 1,
      totalRevenue: 15,
      totalCost: 12.1,
      margin: 2.9,
    });
  } finally {
    await subscription.close();
    await bus.close();
  }
}, 30_000);
