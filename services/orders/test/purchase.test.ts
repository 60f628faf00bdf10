import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fundedUser, type Stack, startStack } from './stack';
import { labelRows, orderBody, outboxRows, postOrder, user } from './support';

// Orders with the real services-pricing and payments services and the sandbox carrier.
const PRIORITY_CENTS = 895;
let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(() => s.close());

const funded = (cents: number) => fundedUser(s, cents);

/** The ledger sums to the balance, and the balance is what the test expects. */
async function expectMoney(userId: string, balanceCents: number) {
  expect(await s.balanceCents(userId)).toBe(balanceCents);
  const sum = (await s.ledgerEntries(userId)).reduce((acc, e) => acc + Number(e.amount_cents), 0);
  expect(sum).toBe(balanceCents);
}

describe('POST /api/orders/v2', () => {
  test('buys a label at the server price: PDF on disk, row completed, balance down, label.purchased recorded', async () => {
    const u = await funded(2000);
    const res = await postOrder(s, u, orderBody(u.id));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      message: 'Label created successfully',
      data: {
        orderId: expect.any(String),
        pdfName: expect.any(String),
        tracking_number: expect.any(String),
        price: 8.95,
      },
    });
    const pdf = await readFile(join(s.filesDir, 'labels', u.id, body.data.pdfName));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await labelRows(s, u.id)).toEqual([
      expect.objectContaining({
        id: body.data.orderId,
        status: 'completed',
        price_cents: PRIORITY_CENTS,
        tracking_number: body.data.tracking_number,
        pdf_name: body.data.pdfName,
        refunded: false,
      }),
    ]);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
    expect((await s.ledgerEntries(u.id)).map((e) => [e.kind, e.idempotency_key])).toEqual([
      ['admin_adjustment', expect.any(String)],
      ['label_charge', `label:${body.data.orderId}`],
    ]);
    const events = (await outboxRows(s)).filter((e) => e.key === u.id);
    expect(events).toEqual([
      {
        topic: 'label.purchased',
        key: u.id,
        value: {
          userId: u.id,
          labelId: body.data.orderId,
          serviceUid: 'usps_priority_mail',
          serviceName: 'USPS Priority Mail',
          priceCents: PRIORITY_CENTS,
          createdAt: expect.any(String),
          // What the sandbox charged the platform for it (the carrier's cost, not the customer's price).
          carrierCostCents: expect.any(Number),
        },
      },
    ]);
  });

  test('a price sent by the client is ignored: the server price is charged', async () => {
    const u = await funded(2000);
    const body = { ...orderBody(u.id), price: 0.01, totalPrice: 0.01, price_cents: 1 };
    const res = await postOrder(s, u, body);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.price).toBe(8.95);
    await expectMoney(u.id, 2000 - PRIORITY_CENTS);
  });

  test('an admin may buy for a user, from that user’s balance', async () => {
    const u = await funded(1000);
    const admin = user(s, 'admin');
    const res = await postOrder(s, admin, orderBody(u.id));
    expect(res.statusCode).toBe(201);
    await expectMoney(u.id, 1000 - PRIORITY_CENTS);
    expect(await labelRows(s, admin.id)).toEqual([]);
  });

  test('buying for someone else is forbidden and charges nobody', async () => {
    const victim = await funded(1000);
    const other = await funded(1000);
    const res = await postOrder(s, other, orderBody(victim.id));
    expect(res.statusCode).toBe(403);
    await expectMoney(victim.id, 1000);
    await expectMoney(other.id, 1000);
  });

  test('without a token the answer is 401', async () => {
    const res = await s.app.inject({ method: 'POST', url: '/api/orders/v2', payload: orderBody(randomUUID()) });
    expect(res.statusCode).toBe(401);
  });

  test('an insufficient balance is refused with payments’ message; row cancelled, nothing charged', async () => {
    const u = await funded(500);
    const res = await postOrder(s, u, orderBody(u.id));
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      code: 'PAYMENTS_INSUFFICIENT_BALANCE',
      message: 'Insufficient balance. This order costs $8.95 but your balance is $5.00.',
    });
    expect(await labelRows(s, u.id)).toEqual([expect.objectContaining({ status: 'cancelled', refunded: false })]);
    await expectMoney(u.id, 500);
  });

  test('a carrier refusal answers 422 with the carrier message, refunds, and cancels the row', async () => {
    const u = await funded(1000);
    const res = await postOrder(s, u, orderBody(u.id, { receiver: { receiver_name: 'FAIL' } }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'ORDERS_CARRIER_FAILED',
      message: 'Address validation failed: the recipient address could not be verified.',
    });
    const [row] = await labelRows(s, u.id);
    expect(row).toMatchObject({
      status: 'cancelled',
      refunded: true,
      pdf_name: null,
      error: 'Address validation failed: the recipient address could not be verified.',
    });
    await expectMoney(u.id, 1000);
    expect((await s.ledgerEntries(u.id)).map((e) => [e.kind, Number(e.amount_cents), e.idempotency_key])).toEqual([
      ['admin_adjustment', 1000, expect.any(String)],
      ['label_charge', -PRIORITY_CENTS, `label:${row!.id}`],
      ['label_refund', PRIORITY_CENTS, `refund:${row!.id}`],
    ]);
    expect((await outboxRows(s)).filter((e) => e.key === u.id)).toEqual([]);
  });
});

/** A change to one field of the body, by dotted path. */
const set =
  (path: string, value: unknown) =>
  (b: ReturnType<typeof orderBody>): unknown => {
    const keys = path.split('.');
    let target = b as unknown as Record<string, Record<string, unknown>>;
    for (const k of keys.slice(0, -1)) target = target[k] as unknown as Record<string, Record<string, unknown>>;
    (target as Record<string, unknown>)[keys[keys.length - 1]!] = value;
    return b;
  };

describe('bad input gets a clear 4xx and moves no money', () => {
  const cases: [string, (b: ReturnType<typeof orderBody>) => unknown, number, string][] = [
    ['zero weight', set('package.package_weight', 0), 400, 'Weight must be a positive number'],
    ['negative weight', set('package.package_weight', -2), 400, 'Weight must be a positive number'],
    [
      'huge weight',
      set('package.package_weight', 1e9),
      400,
      'Weight 1000000000 lb is over the 70 lb maximum for USPS Priority Mail',
    ],
    ['weight just over the service maximum', set('package.package_weight', 70.5), 400, 'over the 70 lb maximum'],
    ['zero length', set('package.package_length', 0), 400, 'Length must be a positive number'],
    ['negative width', set('package.package_width', -1), 400, 'Width must be a positive number'],
    ['huge height', set('package.package_height', 5000), 400, 'Height must be at most 108 inches'],
    ['text weight', set('package.package_weight', 'heavy'), 400, 'Weight must be a positive number'],
    ['no service', set('service_name', ''), 400, 'Please select a service'],
    ['unknown service', set('service_name', 'Pigeon Post'), 400, 'Service "Pigeon Post" is not available'],
    ['non-US state', set('receiver.receiver_state_province', 'ON'), 400, 'Recipient state must be a US state'],
    ['non-US country', set('sender.sender_country', 'CA'), 400, 'Sender country must be US'],
    ['bad ZIP', set('receiver.receiver_zip_postal', 'ABCDE'), 400, 'Recipient zip must be a 5-digit ZIP code or ZIP+4'],
    ['missing sender name', set('sender.sender_name', ''), 400, 'Sender name is required'],
    ['missing recipient city', set('receiver.receiver_city', undefined), 400, 'Recipient city is required'],
    ['bad phone', set('sender.sender_phone', 'call me'), 400, 'Sender phone must contain only digits'],
    ['quantity zero', set('package.package_reference1', '0'), 400, 'Quantity must be a whole number of at least 1'],
    ['long name', set('receiver.receiver_name', 'n'.repeat(201)), 400, 'Recipient name must be at most 200 characters'],
    ['no package object', (b) => ({ ...b, package: undefined }), 400, 'package is required'],
  ];

  test.each(cases)('%s', async (_name, mutate, status, message) => {
    const u = await funded(5000);
    const res = await postOrder(s, u, mutate(orderBody(u.id)));
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toContain(message);
    expect(await labelRows(s, u.id)).toEqual([]);
    await expectMoney(u.id, 5000);
  });

  test('a disabled service cannot be bought', async () => {
    const u = await funded(5000);
    await s.setServiceEnabled('USPS Priority Mail Express', false);
    try {
      const res = await postOrder(s, u, orderBody(u.id, { service_name: 'USPS Priority Mail Express' }));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toMatch(/^PRICING_SERVICE_(DISABLED|UNKNOWN)$/);
      expect(res.json().message).toContain('USPS Priority Mail Express');
    } finally {
      await s.setServiceEnabled('USPS Priority Mail Express', true);
    }
    await expectMoney(u.id, 5000);
  });

  test('malformed JSON is refused as BAD_JSON', async () => {
    const u = await funded(5000);
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/orders/v2',
      headers: { token: u.token, 'content-type': 'application/json' },
      payload: '{"user_id": "x", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('BAD_JSON');
    await expectMoney(u.id, 5000);
  });

  test('an Idempotency-Key that is empty or too long is refused', async () => {
    const u = await funded(5000);
    for (const key of ['x'.repeat(201), 'has space']) {
      const res = await postOrder(s, u, orderBody(u.id), { 'idempotency-key': key });
      expect(res.statusCode).toBe(400);
    }
    await expectMoney(u.id, 5000);
  });
});

describe('Idempotency-Key', () => {
  test('the same key twice gives the first answer again: one label, one charge', async () => {
    const u = await funded(5000);
    const key = randomUUID();
    const first = await postOrder(s, u, orderBody(u.id), { 'idempotency-key': key });
    const second = await postOrder(s, u, orderBody(u.id), { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await labelRows(s, u.id)).toHaveLength(1);
    await expectMoney(u.id, 5000 - PRIORITY_CENTS);
  });

  test('the same key sent concurrently: one label, one charge, the others told it is in progress', async () => {
    const u = await funded(5000);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => postOrder(s, u, orderBody(u.id), { 'idempotency-key': key })),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((c) => c === 201).length).toBeGreaterThanOrEqual(1);
    for (const a of answers) {
      if (a.statusCode === 409) {
        expect(a.json()).toEqual({
          code: 'ORDERS_IN_PROGRESS',
          message: 'This order is already being processed. Please try again in a moment.',
        });
      } else expect(a.statusCode).toBe(201);
    }
    expect(await labelRows(s, u.id)).toHaveLength(1);
    await expectMoney(u.id, 5000 - PRIORITY_CENTS);
  });

  test('a failed first attempt is answered the same way again and charges nothing more', async () => {
    const u = await funded(5000);
    const key = randomUUID();
    const body = orderBody(u.id, { receiver: { receiver_name: 'FAIL' } });
    const first = await postOrder(s, u, body, { 'idempotency-key': key });
    const second = await postOrder(s, u, body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(422);
    expect(second.statusCode).toBe(422);
    expect(second.json()).toEqual(first.json());
    expect(await s.ledgerEntries(u.id)).toHaveLength(3);
    await expectMoney(u.id, 5000);
  });

  test('keys are per user: two users may use the same key', async () => {
    const a = await funded(5000);
    const b = await funded(5000);
    const key = randomUUID();
    expect((await postOrder(s, a, orderBody(a.id), { 'idempotency-key': key })).statusCode).toBe(201);
    expect((await postOrder(s, b, orderBody(b.id), { 'idempotency-key': key })).statusCode).toBe(201);
    await expectMoney(b.id, 5000 - PRIORITY_CENTS);
  });
});
