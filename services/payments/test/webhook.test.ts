import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { syncDeposit } from '../src/domain/sync-deposit';
import {
  createFakeBtcpay,
  createLogCapture,
  createTestBtcpayClient,
  type FakeBtcpay,
  STORE_ID,
  signBody,
  WEBHOOK_SECRET,
  webhookEvent,
} from './fake-btcpay';
import { balanceOf, entriesOf, internal, startTestPayments, type TestPayments } from './support';

const fake: FakeBtcpay = createFakeBtcpay();
let t: TestPayments;
beforeAll(async () => {
  fake.listen();
  t = await startTestPayments({
    btcpay: { provider: createTestBtcpayClient(), webhookSecret: WEBHOOK_SECRET },
  });
});
afterAll(async () => {
  await t.close();
  fake.close();
});
beforeEach(() => {
  fake.state.mode = 'ok';
});

/** A user who opened a top-up invoice through the real route. */
async function userWithInvoice() {
  const user = t.users.add();
  const res = await t.app.inject({ url: `/api/payment/top-up/${user.id}`, headers: { token: t.tokenFor(user) } });
  expect(res.statusCode).toBe(200);
  return { user, invoiceId: res.json().id as string };
}

function deliver(body: string | object, signature: string | null = null) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const sig = signature ?? signBody(raw);
  return t.app.inject({
    method: 'POST',
    url: '/api/payment/webhook/btcpay',
    headers: { 'content-type': 'application/json', ...(sig ? { 'btcpay-sig': sig } : {}) },
    payload: raw,
  });
}

const deposit = async (invoiceId: string) => t.db('deposits').where({ invoice_id: invoiceId }).first();
const summary = async (userId: string) =>
  (await internal(t.app, 'POST', '/internal/accounts/summaries', { userIds: [userId] })).json().summaries[0];

describe('signature', () => {
  test.each([
    ['missing', ''],
    ['signed with another secret', null],
    ['not hex', 'sha256=zz'],
    ['without the sha256= prefix', 'unsigned'],
  ])('a delivery with a signature %s is refused with 401 and changes nothing', async (label, sig) => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '50' });
    const body = JSON.stringify(webhookEvent('InvoiceSettled', invoiceId));
    const signature = label === 'signed with another secret' ? signBody(body, 'another-secret') : (sig as string);
    const res = await deliver(body, signature === '' ? '' : signature);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'PAYMENTS_WEBHOOK_SIGNATURE', message: 'Invalid webhook signature' });
    expect((await deposit(invoiceId)).status).toBe('New');
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);
  });

  test('a body changed after signing is refused, even by one byte of whitespace', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '50' });
    const body = JSON.stringify(webhookEvent('InvoiceSettled', invoiceId));
    const signature = signBody(body);
    expect((await deliver(`${body} `, signature)).statusCode).toBe(401);
    expect((await deliver(body.replace(invoiceId, `${invoiceId}x`), signature)).statusCode).toBe(401);
    expect((await deposit(invoiceId)).status).toBe('New');
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);
    // The untouched bytes pass, which shows the refusals above were about the tampering.
    expect((await deliver(body, signature)).statusCode).toBe(200);
    expect(await balanceOf(t.db, user.id)).toBe(5000);
  });

  test('the signature covers the exact bytes: the same event with other spacing needs its own signature', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Processing' });
    const pretty = JSON.stringify(webhookEvent('InvoiceProcessing', invoiceId), null, 2);
    expect((await deliver(pretty, signBody(JSON.stringify(JSON.parse(pretty))))).statusCode).toBe(401);
    expect((await deliver(pretty)).statusCode).toBe(200);
    expect((await deposit(invoiceId)).status).toBe('Processing');
    expect(user.id).toBeTruthy();
  });
});

describe('malformed deliveries', () => {
  test('a signed body that is not JSON is a 400', async () => {
    const res = await deliver('{"type": "InvoiceSettled"');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'BAD_JSON', message: 'The webhook body is not valid JSON' });
  });

  test('a signed body that is not a webhook event is a 400 naming what is wrong', async () => {
    const { invoiceId } = await userWithInvoice();
    const { invoiceId: _drop, ...withoutInvoice } = webhookEvent('InvoiceSettled', invoiceId);
    const res = await deliver(withoutInvoice);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().message).toContain('invoiceId');
    const badTime = await deliver(webhookEvent('InvoiceSettled', invoiceId, { timestamp: 'yesterday' }));
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().message).toContain('timestamp');
  });

  test('other routes still parse JSON bodies as usual', async () => {
    const res = await internal(t.app, 'POST', '/internal/accounts/summaries', { userIds: [] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ summaries: [] });
  });
});

describe('events that are not ours', () => {
  test('an unknown invoice is acknowledged and changes nothing', async () => {
    fake.add({ id: 'inv-not-ours', status: 'Settled', amount: '10', metadata: { userId: t.users.add().id } });
    const reads = fake.reads;
    const res = await deliver(webhookEvent('InvoiceSettled', 'inv-not-ours'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await deposit('inv-not-ours')).toBeUndefined();
    expect(fake.reads).toBe(reads);
  });

  test('an event of another store is acknowledged and changes nothing', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '10' });
    const res = await deliver(webhookEvent('InvoiceSettled', invoiceId, { storeId: 'someone-else' }));
    expect(res.statusCode).toBe(200);
    expect((await deposit(invoiceId)).status).toBe('New');
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);
  });

  test('event types without a meaning for deposits are acknowledged and change nothing', async () => {
    const { invoiceId } = await userWithInvoice();
    for (const type of ['InvoiceCreated', 'InvoicePaymentSettled', 'SomethingNew']) {
      expect((await deliver(webhookEvent(type, invoiceId))).statusCode).toBe(200);
    }
    expect((await deposit(invoiceId)).status).toBe('New');
  });
});

describe('settling', () => {
  test('Processing, then Settled, credits the amount read back from BTCPay exactly once', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Processing' });
    expect((await deliver(webhookEvent('InvoiceReceivedPayment', invoiceId))).statusCode).toBe(200);
    expect((await deposit(invoiceId)).status).toBe('Processing');
    expect((await deliver(webhookEvent('InvoiceProcessing', invoiceId))).statusCode).toBe(200);
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);

    fake.set(invoiceId, { status: 'Settled', amount: '12.5' });
    const settled = webhookEvent('InvoiceSettled', invoiceId);
    expect((await deliver(settled)).json()).toEqual({ ok: true });
    // BTCPay redelivers: the same delivery again, and a fresh one for the same invoice.
    expect((await deliver({ ...settled, isRedelivery: true })).statusCode).toBe(200);
    expect((await deliver(webhookEvent('InvoiceSettled', invoiceId))).statusCode).toBe(200);

    const entries = await entriesOf(t.db, user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'deposit',
      amount_cents: '1250',
      idempotency_key: `deposit:${invoiceId}`,
      reference: invoiceId,
    });
    expect(await balanceOf(t.db, user.id)).toBe(1250);
    const row = await deposit(invoiceId);
    expect(row).toMatchObject({ status: 'Settled', amount_cents: '1250' });
    expect(row.settled_at).toBeInstanceOf(Date);

    // What the dashboard and the deposit page show.
    const token = t.tokenFor(user);
    const recent = await t.app.inject({ url: `/api/payment/recent-deposits/${user.id}`, headers: { token } });
    expect(recent.json()).toEqual([expect.objectContaining({ amount: 12.5, status: 'Settled' })]);
    const settledList = await t.app.inject({
      url: `/api/payment/deposits/${user.id}?filter=settled`,
      headers: { token },
    });
    expect(settledList.json()).toEqual({
      deposits: [
        { _id: row.id, amount: 12.5, createdTime: Math.floor(row.created_at.getTime() / 1000), status: 'Settled' },
      ],
      totalCount: 1,
    });
    expect(await summary(user.id)).toMatchObject({ userId: user.id, balance: 12.5, totalDeposit: 12.5, totalSpent: 0 });
  });

  test('an amount finer than a cent is rounded down: "0.019" credits 1 cent', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '0.019' });
    expect((await deliver(webhookEvent('InvoiceSettled', invoiceId))).statusCode).toBe(200);
    expect(await balanceOf(t.db, user.id)).toBe(1);
    expect((await deposit(invoiceId)).amount_cents).toBe('1');
  });

  test("the delivery's own claims (status, amount, owner) are ignored; only BTCPay's invoice counts", async () => {
    const { user, invoiceId } = await userWithInvoice();
    const other = t.users.add();
    // The delivery says settled for 1000 dollars to someone else, but BTCPay has not seen a payment yet.
    const claims = { metadata: { userId: other.id }, amount: '1000', status: 'Settled' };
    expect((await deliver(webhookEvent('InvoiceSettled', invoiceId, claims))).statusCode).toBe(200);
    expect((await deposit(invoiceId)).status).toBe('New');
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);

    fake.set(invoiceId, { status: 'Settled', amount: '7.25' });
    expect((await deliver(webhookEvent('InvoiceSettled', invoiceId, claims))).statusCode).toBe(200);
    expect(await balanceOf(t.db, user.id)).toBe(725);
    expect(await balanceOf(t.db, other.id)).toBeNull();
  });

  test('a Settled event while BTCPay still says Processing records Processing and credits nothing yet', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Processing', amount: '30' });
    expect((await deliver(webhookEvent('InvoiceSettled', invoiceId))).statusCode).toBe(200);
    expect((await deposit(invoiceId)).status).toBe('Processing');
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);
  });

  test('10 concurrent Settled deliveries credit once and raise the balance once', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '40.10' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        deliver(webhookEvent('InvoiceSettled', invoiceId, { isRedelivery: i > 0, deliveryId: `same-${i}` })),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const entries = await entriesOf(t.db, user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0].amount_cents).toBe('4010');
    expect(await balanceOf(t.db, user.id)).toBe(4010);
    expect((await summary(user.id)).totalDeposit).toBe(40.1);
  });

  test('a late Processing, Expired or Invalid after Settled keeps the deposit Settled', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '5' });
    await deliver(webhookEvent('InvoiceSettled', invoiceId));
    for (const type of ['InvoiceProcessing', 'InvoiceReceivedPayment', 'InvoiceExpired', 'InvoiceInvalid']) {
      expect((await deliver(webhookEvent(type, invoiceId))).statusCode).toBe(200);
    }
    expect(await deposit(invoiceId)).toMatchObject({ status: 'Settled', amount_cents: '500' });
    expect(await balanceOf(t.db, user.id)).toBe(500);
  });

  test('the database itself refuses to move a settled deposit back', async () => {
    const { invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '5' });
    await deliver(webhookEvent('InvoiceSettled', invoiceId));
    await expect(t.db('deposits').where({ invoice_id: invoiceId }).update({ status: 'Expired' })).rejects.toThrow(
      /settled and cannot change/,
    );
  });

  test('Expired and Invalid are recorded as BTCPay names them', async () => {
    const a = await userWithInvoice();
    const b = await userWithInvoice();
    await deliver(webhookEvent('InvoiceExpired', a.invoiceId));
    await deliver(webhookEvent('InvoiceInvalid', b.invoiceId));
    expect((await deposit(a.invoiceId)).status).toBe('Expired');
    expect((await deposit(b.invoiceId)).status).toBe('Invalid');
    const expired = await t.app.inject({
      url: `/api/payment/deposits/${a.user.id}?filter=expired`,
      headers: { token: t.tokenFor(a.user) },
    });
    expect(expired.json().totalCount).toBe(1);
  });

  test('an invoice settled with nothing paid settles the deposit at 0 with no ledger entry', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '0' });
    expect((await deliver(webhookEvent('InvoiceSettled', invoiceId))).statusCode).toBe(200);
    expect(await deposit(invoiceId)).toMatchObject({ status: 'Settled', amount_cents: '0' });
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);
  });

  test('when BTCPay cannot be read back the delivery gets a 502 so it is redelivered, and the redelivery credits', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '9.99' });
    const event = webhookEvent('InvoiceSettled', invoiceId);
    fake.state.mode = 'network-error';
    const failed = await deliver(event);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().code).toBe('PAYMENTS_PROVIDER_UNAVAILABLE');
    expect((await deposit(invoiceId)).status).toBe('New');
    fake.state.mode = 'ok';
    expect((await deliver({ ...event, isRedelivery: true })).statusCode).toBe(200);
    expect(await balanceOf(t.db, user.id)).toBe(999);
  });
});

describe('settled invoices that do not match their deposit', () => {
  // Acknowledged with 200: redelivering cannot change BTCPay's answer, so a non-2xx would only
  // make BTCPay retry in vain. The refusal is logged as an error for staff to look into.
  test('a currency other than USD is refused without credit, acknowledged and logged', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '25', currency: 'EUR' });
    expect((await deliver(webhookEvent('InvoiceSettled', invoiceId))).statusCode).toBe(200);
    expect((await deposit(invoiceId)).status).not.toBe('Settled');
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);

    const log = createLogCapture();
    expect(await syncDeposit(t.syncDeps(log), invoiceId)).toBe('refused');
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: 'error', obj: expect.objectContaining({ invoiceId, reason: 'currency' }) }),
    );
  });

  test('an invoice whose metadata names another user is refused without credit to either, and logged', async () => {
    const { user, invoiceId } = await userWithInvoice();
    const other = t.users.add();
    fake.set(invoiceId, { status: 'Settled', amount: '25', metadata: { userId: other.id } });
    expect((await deliver(webhookEvent('InvoiceSettled', invoiceId))).statusCode).toBe(200);
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);
    expect(await balanceOf(t.db, other.id)).toBeNull();

    const log = createLogCapture();
    expect(await syncDeposit(t.syncDeps(log), invoiceId)).toBe('refused');
    expect(log.lines.some((l) => l.level === 'error' && JSON.stringify(l.obj).includes(other.id))).toBe(true);
  });

  test('an invoice of another store answered for ours is refused', async () => {
    const { user, invoiceId } = await userWithInvoice();
    fake.set(invoiceId, { status: 'Settled', amount: '25', storeId: `${STORE_ID}-2` });
    expect((await deliver(webhookEvent('InvoiceSettled', invoiceId))).statusCode).toBe(200);
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);
  });
});
