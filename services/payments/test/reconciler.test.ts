import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { reconcileDeposits } from '../src/domain/reconcile-deposits';
import { startDepositReconciler } from '../src/jobs/deposit-reconciler';
import { createFakeBtcpay, createTestBtcpayClient, type FakeBtcpay, quietLogger, WEBHOOK_SECRET } from './fake-btcpay';
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
beforeEach(async () => {
  fake.state.mode = 'ok';
  // Each test starts with no open deposit left over from another.
  await t.db('deposits').whereIn('status', ['New', 'Processing']).update({ status: 'Expired' });
});

const MINUTE = 60_000;

/** A top-up opened through the real route, `ageMs` ago. */
async function invoiceAged(ageMs: number) {
  const user = t.users.add();
  const res = await t.app.inject({ url: `/api/payment/top-up/${user.id}`, headers: { token: t.tokenFor(user) } });
  const invoiceId = res.json().id as string;
  await t
    .db('deposits')
    .where({ invoice_id: invoiceId })
    .update({ created_at: new Date(Date.now() - ageMs) });
  return { user, invoiceId };
}
const deposit = async (invoiceId: string) => t.db('deposits').where({ invoice_id: invoiceId }).first();

describe('reconciling deposits whose webhooks were lost', () => {
  test('a settled invoice is credited without any webhook, once, however often it runs', async () => {
    const { user, invoiceId } = await invoiceAged(5 * MINUTE);
    fake.set(invoiceId, { status: 'Settled', amount: '20' });
    const report = await reconcileDeposits(t.syncDeps());
    expect(report).toEqual({ checked: 1, failed: 0, outcomes: { credited: 1 } });
    expect(await balanceOf(t.db, user.id)).toBe(2000);
    expect(await deposit(invoiceId)).toMatchObject({ status: 'Settled', amount_cents: '2000' });

    expect((await reconcileDeposits(t.syncDeps())).checked).toBe(0);
    expect(await entriesOf(t.db, user.id)).toHaveLength(1);
    const summaries = await internal(t.app, 'POST', '/internal/accounts/summaries', { userIds: [user.id] });
    expect(summaries.json().summaries[0]).toMatchObject({ balance: 20, totalDeposit: 20 });
  });

  test('an invoice still New at BTCPay is left alone', async () => {
    const { user, invoiceId } = await invoiceAged(5 * MINUTE);
    const report = await reconcileDeposits(t.syncDeps());
    expect(report).toEqual({ checked: 1, failed: 0, outcomes: { unchanged: 1 } });
    expect((await deposit(invoiceId)).status).toBe('New');
    expect(await entriesOf(t.db, user.id)).toHaveLength(0);
  });

  test('Processing and Expired are taken over from BTCPay; a Processing deposit is checked again later', async () => {
    const paying = await invoiceAged(5 * MINUTE);
    const lapsed = await invoiceAged(90 * MINUTE);
    fake.set(paying.invoiceId, { status: 'Processing' });
    fake.set(lapsed.invoiceId, { status: 'Expired' });
    expect(await reconcileDeposits(t.syncDeps())).toEqual({ checked: 2, failed: 0, outcomes: { status_changed: 2 } });
    expect((await deposit(paying.invoiceId)).status).toBe('Processing');
    expect((await deposit(lapsed.invoiceId)).status).toBe('Expired');

    fake.set(paying.invoiceId, { status: 'Settled', amount: '3.3' });
    expect(await reconcileDeposits(t.syncDeps())).toEqual({ checked: 1, failed: 0, outcomes: { credited: 1 } });
    expect(await balanceOf(t.db, paying.user.id)).toBe(330);
  });

  test('deposits younger than a minute or older than two days are not read', async () => {
    const fresh = await invoiceAged(10_000);
    const ancient = await invoiceAged(3 * 24 * 60 * MINUTE);
    fake.set(fresh.invoiceId, { status: 'Settled', amount: '1' });
    fake.set(ancient.invoiceId, { status: 'Settled', amount: '1' });
    const reads = fake.reads;
    expect((await reconcileDeposits(t.syncDeps())).checked).toBe(0);
    expect(fake.reads).toBe(reads);
    expect((await deposit(fresh.invoiceId)).status).toBe('New');
  });

  test('a provider failure is counted and leaves the deposit for the next run', async () => {
    const { user, invoiceId } = await invoiceAged(5 * MINUTE);
    fake.set(invoiceId, { status: 'Settled', amount: '8' });
    fake.state.mode = 'server-error';
    expect(await reconcileDeposits(t.syncDeps())).toEqual({ checked: 1, failed: 1, outcomes: {} });
    expect((await deposit(invoiceId)).status).toBe('New');
    fake.state.mode = 'ok';
    await reconcileDeposits(t.syncDeps());
    expect(await balanceOf(t.db, user.id)).toBe(800);
  });

  test('the reconciler and a webhook racing for one invoice credit it once', async () => {
    const { user, invoiceId } = await invoiceAged(5 * MINUTE);
    fake.set(invoiceId, { status: 'Settled', amount: '15' });
    const { signBody, webhookEvent } = await import('./fake-btcpay');
    const body = JSON.stringify(webhookEvent('InvoiceSettled', invoiceId));
    await Promise.all([
      reconcileDeposits(t.syncDeps()),
      t.app.inject({
        method: 'POST',
        url: '/api/payment/webhook/btcpay',
        headers: { 'content-type': 'application/json', 'btcpay-sig': signBody(body) },
        payload: body,
      }),
      reconcileDeposits(t.syncDeps()),
    ]);
    expect(await entriesOf(t.db, user.id)).toHaveLength(1);
    expect(await balanceOf(t.db, user.id)).toBe(1500);
  });
});

describe('the reconciler job', () => {
  test('runs on its interval until stopped, one run at a time', async () => {
    // A fake clock and runs the test ends itself: which tick starts a run, and which finds one still going,
    // does not depend on how busy the machine is.
    vi.useFakeTimers();
    try {
      let runs = 0;
      let concurrent = 0;
      let maxConcurrent = 0;
      const finish: (() => void)[] = [];
      const job = startDepositReconciler({
        intervalMs: 10,
        logger: quietLogger,
        run: async () => {
          runs++;
          concurrent++;
          maxConcurrent = Math.max(maxConcurrent, concurrent);
          await new Promise<void>((resolve) => finish.push(resolve));
          concurrent--;
          return { checked: 0, failed: 0, outcomes: {} };
        },
      });
      expect(runs).toBe(0);
      await vi.advanceTimersByTimeAsync(10);
      expect(runs).toBe(1);
      // Ticks that find the run still going start no other.
      await vi.advanceTimersByTimeAsync(50);
      expect(runs).toBe(1);
      finish.shift()?.();
      await vi.advanceTimersByTimeAsync(10);
      expect(runs).toBe(2);

      // Stopping waits for the run in progress, and no run starts after it.
      let stopped = false;
      const stopping = job.stop().then(() => {
        stopped = true;
      });
      await vi.advanceTimersByTimeAsync(50);
      expect(stopped).toBe(false);
      finish.shift()?.();
      await stopping;
      expect(concurrent).toBe(0);
      await vi.advanceTimersByTimeAsync(100);
      expect(runs).toBe(2);
      expect(maxConcurrent).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  test('credits a lost webhook on its own when started against the real use case', async () => {
    const { user, invoiceId } = await invoiceAged(5 * MINUTE);
    fake.set(invoiceId, { status: 'Settled', amount: '2.5' });
    const job = startDepositReconciler({
      intervalMs: 20,
      logger: quietLogger,
      run: () => reconcileDeposits(t.syncDeps()),
    });
    const deadline = Date.now() + 15_000;
    while ((await balanceOf(t.db, user.id)) !== 250 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await job.stop();
    expect(await balanceOf(t.db, user.id)).toBe(250);
  });
});
