import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { caseBulkItem, caseOrderBody, SHIPMENT_CASES } from '../../order-files/test/shipment-cases';
import { newOrderId, processBulk } from './bulk-support';
import { fundedUser, type Stack, startStack } from './stack';
import { postOrder } from './support';

// The server's half of the shared table (order-files/test/shipment-cases.ts): what the bulk table
// and the single-label form say about a shipment is what the server answers when it is sent.
let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(() => s.close());

const funded = () => fundedUser(s, 100_000);

const cases = SHIPMENT_CASES.map((c) => [c.name, c] as const);

describe('one shipment, one set of rules (server side)', () => {
  test.each(cases)('single label: %s', async (_, c) => {
    const u = await funded();
    // These rows are shapes for the rules (a city named Somewhere), not real addresses: whether the carrier delivers
    // there is address-checks.test.ts's business, so the buyer has acknowledged it.
    const res = await postOrder(s, u, { ...caseOrderBody(c, u.id), address_acknowledged: true });
    const [first] = c.problems;
    if (!first) {
      expect(res.statusCode, res.body).toBe(201);
      return;
    }
    // A single label answers its first problem, which the form shows.
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'ORDERS_INVALID', message: first.message });
  });

  test.each(cases)('bulk: %s', async (_, c) => {
    const u = await funded();
    const orderId = await newOrderId(s, u);
    const res = await processBulk(s, u, { orderId, orderData: [caseBulkItem(c)] });
    if (c.problems.length === 0) {
      expect(res.statusCode, res.body).toBe(202);
      return;
    }
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'ORDERS_INVALID',
      message: `Row 1: ${c.problems.map((p) => p.message).join(', ')}`,
    });
    expect(await s.db('labels').where({ bulk_order_id: orderId })).toHaveLength(0);
  });
});
