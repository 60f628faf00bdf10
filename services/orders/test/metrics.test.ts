import { metricSample } from '@flatship/kit/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack } from './stack';
import { orderBody, postOrder, user } from './support';

let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(() => s.close());

describe('single-label purchases on /metrics', () => {
  test('count labels bought and refused, time the carrier, and time the route by its pattern', async () => {
    const u = user(s);
    await s.setBalance(u.id, 100_00);
    const before = (await s.app.inject('/metrics')).body;
    const labels = { carrier: 'usps', service: 'usps_priority_mail', source: 'single' };
    const boughtBefore = metricSample(before, 'flatship_labels_bought_total', labels);
    const refusedBefore = metricSample(before, 'flatship_labels_failed_total', { ...labels, reason: 'refused' });

    expect((await postOrder(s, u, orderBody(u.id))).statusCode).toBeLessThan(300);
    expect((await postOrder(s, u, orderBody(u.id))).statusCode).toBeLessThan(300);
    const refused = await postOrder(s, u, orderBody(u.id, { receiver: { receiver_name: 'FAIL' } }));
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);

    const page = (await s.app.inject('/metrics')).body;
    expect(metricSample(page, 'flatship_labels_bought_total', labels)).toBe(boughtBefore + 2);
    expect(metricSample(page, 'flatship_labels_failed_total', { ...labels, reason: 'refused' })).toBe(
      refusedBefore + 1,
    );
    const calls = (outcome: string) =>
      metricSample(page, 'flatship_carrier_call_duration_seconds_count', {
        carrier: 'usps',
        operation: 'purchase',
        outcome,
      });
    const callsBefore = (outcome: string) =>
      metricSample(before, 'flatship_carrier_call_duration_seconds_count', {
        carrier: 'usps',
        operation: 'purchase',
        outcome,
      });
    expect(calls('ok') - callsBefore('ok')).toBe(2);
    expect(calls('refused') - callsBefore('refused')).toBe(1);
    expect(page).toMatch(
      /flatship_http_request_duration_seconds_count\{[^}]*route="\/api\/orders\/v2"[^}]*status_class="2xx"/,
    );
    expect(page).not.toContain(u.id);
  });
});
