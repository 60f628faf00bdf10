import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb } from '@flatship/kit';
import {
  createTestDatabase,
  freePort,
  generateTokenKeys,
  type ServiceProcess,
  spawnService,
  waitUntilUp,
} from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';

// Runs the real entry point the way the launcher does, against a real database.
// The built entry production runs (the test setup rebuilds it when its sources changed).
const MAIN = new URL('../dist/main.js', import.meta.url);
const SECRET = 'main-test-internal-secret';
let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  tdb = await createTestDatabase('payments_main');
});
afterAll(() => tdb.drop());

/** Waits for /readyz: the service starts its jobs before it listens, so their effects can come first. */
const untilReady = (s: ServiceProcess, port: number) => waitUntilUp(`http://127.0.0.1:${port}/readyz`, s);

test('the service migrates, answers /readyz and internal calls, and stops cleanly on SIGTERM', async () => {
  const port = await freePort();
  const s = spawnService(MAIN, {
    DATABASE_URL: tdb.url,
    JWT_PUBLIC_KEY: generateTokenKeys().publicKey,
    INTERNAL_SECRET: SECRET,
    AUTH_URL: 'http://127.0.0.1:9',
    PORT: String(port),
    LOG_LEVEL: 'info',
  });
  await untilReady(s, port);
  const userId = randomUUID();
  const res = await fetch(`http://127.0.0.1:${port}/internal/accounts/summaries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-secret': SECRET },
    body: JSON.stringify({ userIds: [userId] }),
  });
  expect(await res.json()).toEqual({ summaries: [{ userId, balance: 0, totalDeposit: 0, totalSpent: 0, seq: 0 }] });
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
  expect(s.logs()).toContain('migrations applied');
  expect(s.logs()).toContain('BTCPAY_URL is not set: deposits are off');
}, 60_000);

test('a missing variable stops the start with a message naming it', async () => {
  const s = spawnService(MAIN, { DATABASE_URL: tdb.url, INTERNAL_SECRET: SECRET, PORT: '0' });
  expect(await s.exited).toBe(78);
  expect(s.logs()).toContain('JWT_PUBLIC_KEY is required but not set');
  expect(s.logs()).toContain('AUTH_URL is required but not set');
}, 30_000);

test('BTCPAY_URL without its store, key and secret stops the start naming each, and never prints the key', async () => {
  const s = spawnService(MAIN, {
    DATABASE_URL: tdb.url,
    JWT_PUBLIC_KEY: generateTokenKeys().publicKey,
    INTERNAL_SECRET: SECRET,
    AUTH_URL: 'http://127.0.0.1:9',
    PORT: '0',
    BTCPAY_URL: 'https://pay.example.com',
    BTCPAY_API_KEY: 'very-secret-api-key',
  });
  expect(await s.exited).toBe(78);
  expect(s.logs()).toContain('BTCPAY_STORE_ID is required when BTCPAY_URL is set');
  expect(s.logs()).toContain('BTCPAY_WEBHOOK_SECRET is required when BTCPAY_URL is set');
  expect(s.logs()).not.toContain('BTCPAY_API_KEY is required');
  expect(s.logs()).not.toContain('very-secret-api-key');
}, 30_000);

test('with BTCPay configured, the reconciler credits a settled invoice on its own and webhooks check the secret', async () => {
  const userId = randomUUID();
  const invoiceId = `inv-${randomUUID()}`;
  const authorizations: string[] = [];
  // A Greenfield server in its own process's reach (msw cannot reach a child process).
  const btcpay = createServer((req, res) => {
    authorizations.push(String(req.headers.authorization));
    const now = Math.floor(Date.now() / 1000);
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        id: invoiceId,
        storeId: 'main-store',
        amount: '3.21',
        currency: 'USD',
        type: 'TopUp',
        checkoutLink: `http://btcpay/i/${invoiceId}`,
        status: 'Settled',
        createdTime: now,
        expirationTime: now + 3600,
        metadata: { userId },
      }),
    );
  });
  await new Promise<void>((r) => btcpay.listen(0, '127.0.0.1', r));
  const db = createDb(tdb.url, 'payments');
  try {
    const port = await freePort();
    const s = spawnService(MAIN, {
      DATABASE_URL: tdb.url,
      JWT_PUBLIC_KEY: generateTokenKeys().publicKey,
      INTERNAL_SECRET: SECRET,
      AUTH_URL: 'http://127.0.0.1:9',
      PORT: String(port),
      LOG_LEVEL: 'info',
      BTCPAY_URL: `http://127.0.0.1:${(btcpay.address() as AddressInfo).port}`,
      BTCPAY_STORE_ID: 'main-store',
      BTCPAY_API_KEY: 'main-api-key-0123',
      BTCPAY_WEBHOOK_SECRET: 'main-webhook-secret',
      DEPOSIT_RECONCILE_INTERVAL_MS: '100',
    });
    // A deposit whose webhook never came.
    await db('deposits').insert({
      user_id: userId,
      invoice_id: invoiceId,
      amount_cents: 0,
      status: 'New',
      created_at: new Date(Date.now() - 5 * 60_000),
    });
    const deadline = Date.now() + 20_000;
    let settled: { status: string; amount_cents: string } | undefined;
    while (Date.now() < deadline) {
      if (s.child.exitCode !== null) throw new Error(`payments exited early:\n${s.logs()}`);
      settled = await db('deposits').where({ invoice_id: invoiceId }).first();
      if (settled?.status === 'Settled') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(settled).toMatchObject({ status: 'Settled', amount_cents: '321' });
    expect(await db('accounts').where({ user_id: userId }).first()).toMatchObject({ balance_cents: '321' });
    expect(authorizations[0]).toBe('token main-api-key-0123');

    const body = JSON.stringify({
      deliveryId: 'd',
      webhookId: 'w',
      isRedelivery: false,
      type: 'InvoiceSettled',
      timestamp: 1,
      storeId: 'main-store',
      invoiceId,
    });
    await untilReady(s, port);
    const url = `http://127.0.0.1:${port}/api/payment/webhook/btcpay`;
    const sign = (secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const post = (sig: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'btcpay-sig': sig }, body });
    expect((await post(sign('wrong-secret'))).status).toBe(401);
    expect((await post(sign('main-webhook-secret'))).status).toBe(200);
    expect(await db('ledger_entries').where({ user_id: userId })).toHaveLength(1);

    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.logs()).not.toContain('main-api-key-0123');
    expect(s.logs()).not.toContain('main-webhook-secret');
  } finally {
    await db.destroy();
    btcpay.close();
  }
}, 60_000);
