import { createSandboxCarrier } from '@flatship/carriers';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CarrierPort } from '../src/domain/ports';
import { type Stack, startStack } from './stack';
import { labelRows, orderBody, postOrder, user } from './support';

// A process works on a few single-label purchases at once and lets a few more wait their turn; one more is told at
// once to try again, instead of waiting with no end in sight behind everyone else.

const sandbox = createSandboxCarrier();
/** While set, purchases at the carrier wait for it: the ones at work stay at work. */
let gate: Promise<void> | null = null;
let open = () => {};
let atCarrier = 0;
const carrier: CarrierPort = {
  ...sandbox,
  async purchaseLabel(req) {
    atCarrier++;
    if (gate) await gate;
    return sandbox.purchaseLabel(req);
  },
};

let s: Stack;
beforeAll(async () => {
  s = await startStack({ carrier, purchases: { atWork: 2, waiting: 1 } });
});
afterAll(async () => {
  open();
  await s?.close();
});

test('two at work and one waiting: the next purchase is answered 503 at once, with Retry-After, and nothing is written or charged', async () => {
  const u = user(s);
  await s.setBalance(u.id, 10 * 895);
  gate = new Promise((resolve) => {
    open = resolve;
  });
  const buy = () => postOrder(s, u, orderBody(u.id));
  const working = [buy(), buy()];
  await expect.poll(() => atCarrier).toBe(2);
  // Two more: one waits its turn, the other finds the line full. Which is which is the order they arrive in.
  const more = [buy(), buy()];
  const first = await Promise.race(more);
  expect(first.statusCode, first.body).toBe(503);
  expect(first.json()).toEqual({
    code: 'ORDERS_BUSY',
    message: 'Many labels are being bought right now. Nothing was charged; please try again in a moment.',
  });
  expect(first.headers['retry-after']).toBe('1');
  // Answered while the two at work were still at the carrier.
  expect(atCarrier).toBe(2);

  open();
  gate = null;
  const answers = await Promise.all([...working, ...more]);
  expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 201, 503]);
  const rows = await labelRows(s, u.id);
  expect(rows.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
  expect(await s.balanceCents(u.id)).toBe(7 * 895);

  // The line is free again: the next purchase goes through.
  expect((await buy()).statusCode).toBe(201);
});
