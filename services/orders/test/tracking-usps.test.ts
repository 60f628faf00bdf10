import type { Carrier } from '@flatship/carriers';
import { type FakeUsps, startFakeUsps } from '@flatship/carriers/testing';
import { REFUND_MESSAGES } from '@flatship/proto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTrackingRepo } from '../src/db/tracking-repo';
import { checkTracking, type TrackingDeps, type TrackingPolicy } from '../src/domain/tracking';
import { fundedUser, type Stack, startStack } from './stack';
import { orderBody, postOrder, type TestUser } from './support';

// Tracking polled through the live USPS adapter, as orders runs it (CARRIERS=usps), against the fake USPS on
// loopback: each label asked at the configured pace, the carrier's words kept, and a 500 or a 429 from USPS
// never breaking the job.

const POLICY: TrackingPolicy = {
  freshMs: 3_600_000,
  freshDays: 7,
  oldMs: 6 * 3_600_000,
  maxAgeDays: 45,
  pushedBy: [],
  pushedMs: 0,
};

let usps: FakeUsps;
let s: Stack;
let deps: TrackingDeps;
let u: TestUser;

beforeAll(async () => {
  usps = await startFakeUsps({ balanceCents: 1_000_000 });
  s = await startStack({
    carriers: 'usps',
    carrierSettings: {
      usps: {
        USPS_API_BASE_URL: usps.url,
        USPS_CLIENT_ID: usps.credentials.clientId,
        USPS_CLIENT_SECRET: usps.credentials.clientSecret,
        USPS_CRID: usps.credentials.crid,
        USPS_MID: usps.credentials.mid,
        USPS_MANIFEST_MID: usps.credentials.manifestMid,
        USPS_EPS_ACCOUNT: usps.credentials.epsAccount,
        USPS_TIMEOUT_MS: 5000,
      },
    },
  });
  const silent = { info() {}, warn() {}, error() {} };
  // The orders app's carrier is the carrier set, which tracks through the plugin that sold each label.
  deps = { tracking: createTrackingRepo(s.db), carrier: s.domain.carrier as Pick<Carrier, 'track'>, logger: silent };
  u = await fundedUser(s, 500_00);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await usps?.close();
});

/** As if the hour had passed since each label's last look and news. */
const anHourLater = () => {
  const then = s.db.raw("now() - interval '61 minutes'");
  return s.db('labels').update({ tracking_checked_at: then, tracking_updated_at: then });
};
const stored = async () =>
  Object.fromEntries(
    (await s.db('labels').select('tracking_number', 'tracking_status')).map((r) => [
      r.tracking_number,
      r.tracking_status,
    ]),
  );

test('USPS is asked about each label once an hour, its words kept, through 500s and 429s', async () => {
  const bought: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await postOrder(s, u, orderBody(u.id));
    expect(res.statusCode, res.body).toBe(201);
    bought.push(res.json().data.tracking_number);
  }
  expect(usps.count('tracking')).toBe(0);

  expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 3, failed: 0 });
  expect(usps.count('tracking')).toBe(3);
  expect(Object.values(await stored())).toEqual(['pre_transit', 'pre_transit', 'pre_transit']);
  // Within the hour, nobody asks again.
  expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 0 });
  expect(usps.count('tracking')).toBe(3);

  // USPS has taken one parcel; its tracking answer then fails with 500s (every retry of one call): that label is
  // left as it was, and the round goes on to the others.
  const [moving] = bought as [string];
  // Later the day the label was made (the fake has it created at 14:15 UTC on its mailing date).
  const day = String(usps.labels.get(moving)?.metadata.mailingDate).slice(0, 10);
  usps.setTracking(moving, {
    trackingNumber: moving,
    statusCategory: 'In Transit',
    status: 'Arrived at USPS Regional Facility',
    expectedDeliveryTimeStamp: '2026-12-09T20:00:00Z',
    trackingEvents: [
      {
        eventType: 'Arrived at USPS Regional Facility',
        GMTTimestamp: `${day}T22:40:00.000Z`,
        eventCity: 'JERSEY CITY',
        eventState: 'NJ',
        eventZIP: '07097',
      },
      {
        eventType: 'USPS in possession of item',
        GMTTimestamp: `${day}T16:05:00.000Z`,
        eventCity: 'AUSTIN',
        eventState: 'TX',
        eventZIP: '78701',
      },
    ],
  });
  await anHourLater();
  const outage = { kind: 'status', status: 500 } as const;
  usps.fail('tracking', outage, outage, outage, outage);
  const withOutage = await checkTracking(deps, POLICY, 50);
  expect(withOutage).toMatchObject({ checked: 3, failed: 1, deferred: 0 });

  // USPS throttles: the round stops at once, and the labels it did not reach are first in line next round.
  await anHourLater();
  usps.fail('tracking', { kind: 'status', status: 429, retryAfter: '120' });
  const asksBefore = usps.count('tracking');
  expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 1, failed: 1, deferred: 2 });
  expect(usps.count('tracking')).toBe(asksBefore + 1);
  expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 2, failed: 0 });
  expect(await checkTracking(deps, POLICY, 50)).toMatchObject({ checked: 0 });

  // Whichever round reached it, the moving parcel's news is kept, and its label was used.
  await anHourLater();
  await checkTracking(deps, POLICY, 50);
  expect((await stored())[moving]).toBe('in_transit');
  const label = await s.db('labels').where({ tracking_number: moving }).first('id');
  const tracking = await s.app.inject({ url: `/api/orders/labels/${label.id}/tracking`, headers: { token: u.token } });
  expect(tracking.json()).toMatchObject({
    stage: 'in_transit',
    estimatedDelivery: '2026-12-09',
    events: [
      { stage: 'in_transit', description: 'Arrived at USPS Regional Facility', place: 'JERSEY CITY, NJ 07097' },
      { stage: 'in_transit', description: 'USPS in possession of item', place: 'AUSTIN, TX 78701' },
    ],
  });
  const refund = await s.app.inject({
    method: 'POST',
    url: `/api/orders/labels/${label.id}/refund`,
    headers: { token: u.token },
  });
  expect(refund.json()).toEqual({ code: 'ORDERS_LABEL_USED', message: REFUND_MESSAGES.used });
}, 60_000);
