import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../src/paths';
import {
  BTCPAY_STORE_ID,
  mainFile,
  OWNED_VARIABLES,
  presentServices,
  SERVICE_REGISTRY,
  type StackContext,
  sourceFile,
} from '../src/services';
import { createStateStore, generateSecrets } from '../src/state';

const SIMULATOR_ENTRY = join(REPO_ROOT, 'infra', 'dist', 'btcpay.js');

const service = (name: string) => {
  const def = SERVICE_REGISTRY.find((s) => s.name === name);
  if (!def) throw new Error(`${name} is not in the registry`);
  return def;
};

function context(host: string, urls: Record<string, string>): StackContext {
  return {
    databaseUrl: 'postgres://x@127.0.0.1:5432/flatship',
    jwtPublicKey: 'pub',
    jwtPrivateKey: 'priv',
    internalSecret: 'internal',
    logLevel: 'info',
    host,
    port: 8080,
    publicUrl: 'http://localhost:8080',
    staticDir: '/web/dist',
    filesDir: '/data/files',
    adminEmail: 'admin@flatship.local',
    urls,
    btcpay: {
      apiKey: 'k'.repeat(40),
      webhookSecret: 's'.repeat(43),
      dataFile: '/data/btcpay-invoices.json',
      publicUrl: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:4170`,
    },
  };
}

test('a data directory from before the simulator keeps its secrets and gains the BTCPay key and webhook secret once', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'flatship-state-'));
  try {
    const { btcpayApiKey: _k, btcpayWebhookSecret: _s, ...old } = generateSecrets();
    await writeFile(join(dir, 'secrets.json'), JSON.stringify(old), { mode: 0o600 });
    const upgraded = await createStateStore(dir).loadOrCreateSecrets();
    expect(upgraded.created).toBe(false);
    expect(upgraded.secrets).toMatchObject(old);
    expect(upgraded.secrets.btcpayApiKey).toMatch(/^[0-9a-f]{40}$/);
    expect(upgraded.secrets.btcpayWebhookSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(await readFile(join(dir, 'secrets.json'), 'utf8'))).toEqual(upgraded.secrets);
    expect((await stat(join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
    const again = await createStateStore(dir).loadOrCreateSecrets();
    expect(again.secrets).toEqual(upgraded.secrets);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('fresh secrets include a BTCPay API key and webhook secret, different for every data directory', () => {
  const a = generateSecrets();
  const b = generateSecrets();
  expect(a.btcpayApiKey).not.toBe(b.btcpayApiKey);
  expect(a.btcpayWebhookSecret).not.toBe(b.btcpayWebhookSecret);
  expect(a.btcpayWebhookSecret.length).toBeGreaterThanOrEqual(32);
});

test('the simulator runs from its own built entry file on port 4170, before payments', () => {
  const def = service('btcpay');
  expect(def.port).toBe(4170);
  expect(mainFile(REPO_ROOT, def)).toBe(SIMULATOR_ENTRY);
  expect(existsSync(SIMULATOR_ENTRY)).toBe(true);
  expect(sourceFile(REPO_ROOT, def)).toBe(join(REPO_ROOT, 'infra', 'src', 'btcpay', 'main.ts'));
  expect(mainFile(REPO_ROOT, service('payments'))).toBe(join(REPO_ROOT, 'services/payments/dist/main.js'));
  const names = presentServices(REPO_ROOT).map((s) => s.name);
  expect(names).toContain('btcpay');
  expect(names.indexOf('btcpay')).toBeLessThan(names.indexOf('payments'));
});

test('the simulator listens where the gateway does and posts webhooks through the gateway', () => {
  const ctx = context('127.0.0.1', { btcpay: 'http://127.0.0.1:4170', payments: 'http://127.0.0.1:4103' });
  expect(service('btcpay').env(ctx, { port: 4170 })).toEqual({
    PORT: '4170',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    BTCPAY_STORE_ID,
    BTCPAY_API_KEY: ctx.btcpay.apiKey,
    BTCPAY_WEBHOOK_SECRET: ctx.btcpay.webhookSecret,
    BTCPAY_WEBHOOK_URL: 'http://127.0.0.1:8080/api/payment/webhook/btcpay',
    BTCPAY_PUBLIC_URL: 'http://127.0.0.1:4170',
    BTCPAY_DATA_FILE: '/data/btcpay-invoices.json',
  });
  const wildcard = context('0.0.0.0', { btcpay: 'http://127.0.0.1:4170' });
  expect(service('btcpay').env(wildcard, { port: 4170 })).toMatchObject({
    HOST: '0.0.0.0',
    BTCPAY_WEBHOOK_URL: 'http://127.0.0.1:8080/api/payment/webhook/btcpay',
  });
  const lan = context('192.168.1.20', { btcpay: 'http://192.168.1.20:4170' });
  expect(service('btcpay').env(lan, { port: 4170 }).BTCPAY_WEBHOOK_URL).toBe(
    'http://192.168.1.20:8080/api/payment/webhook/btcpay',
  );
});

test('payments gets the simulator URL, store, key and webhook secret; the gateway lets the web app load it', () => {
  const ctx = context('127.0.0.1', { btcpay: 'http://127.0.0.1:4170', payments: 'http://127.0.0.1:4103' });
  expect(service('payments').env(ctx, { port: 4103 })).toMatchObject({
    BTCPAY_URL: 'http://127.0.0.1:4170',
    BTCPAY_STORE_ID,
    BTCPAY_API_KEY: ctx.btcpay.apiKey,
    BTCPAY_WEBHOOK_SECRET: ctx.btcpay.webhookSecret,
  });
  expect(service('gateway').env(ctx, { port: 8080 }).CSP_EXTRA_ORIGINS).toBe('http://127.0.0.1:4170');
  // Without the simulator, deposits are simply off.
  const without = context('127.0.0.1', { payments: 'http://127.0.0.1:4103' });
  expect(service('payments').env(without, { port: 4103 })).not.toHaveProperty('BTCPAY_URL');
  expect(service('gateway').env(without, { port: 8080 })).not.toHaveProperty('CSP_EXTRA_ORIGINS');
  for (const name of ['BTCPAY_URL', 'BTCPAY_API_KEY', 'BTCPAY_WEBHOOK_SECRET', 'BTCPAY_WEBHOOK_URL']) {
    expect(OWNED_VARIABLES.has(name)).toBe(true);
  }
});

function runSimulator(env: Record<string, string>) {
  const child = spawn(process.execPath, [SIMULATOR_ENTRY], {
    cwd: join(REPO_ROOT, 'infra'),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exited, output: () => output };
}

const simulatorEnv = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  BTCPAY_STORE_ID: 'store-1',
  BTCPAY_API_KEY: 'k'.repeat(40),
  BTCPAY_WEBHOOK_URL: 'http://127.0.0.1:9/api/payment/webhook/btcpay',
  BTCPAY_WEBHOOK_SECRET: 's'.repeat(32),
  BTCPAY_PUBLIC_URL: 'http://127.0.0.1:4170',
};

test('the simulator stops at start with a message naming a missing variable', async () => {
  const { BTCPAY_API_KEY: _omit, ...env } = simulatorEnv;
  const run = runSimulator(env);
  expect(await run.exited).toBe(78);
  expect(run.output()).toContain('BTCPAY_API_KEY is required but not set');
});

test('the simulator serves its health check and exits cleanly on SIGTERM', async () => {
  const run = runSimulator(simulatorEnv);
  try {
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening:\n${run.output()}`)), 20_000);
      const check = () => {
        const m = run.output().match(/listening at (http:\/\/127\.0\.0\.1:\d+)/);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      run.child.stdout.on('data', check);
      void run.exited.then(() => reject(new Error(`exited:\n${run.output()}`)));
    });
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  } finally {
    run.child.kill('SIGKILL');
  }
});

test('the gateway is not ready while any process the launcher waits for is not: each is an upstream or in READY_ALSO', async () => {
  const { loadGatewayConfig } = await import('@flatship/gateway');
  const others = SERVICE_REGISTRY.filter((def) => def.name !== 'gateway');
  const urls = Object.fromEntries(others.map((def) => [def.name, `http://127.0.0.1:${def.port}`]));
  const env = service('gateway').env(context('127.0.0.1', urls), { port: 8080 });
  const config = loadGatewayConfig({ ...env, JWT_PUBLIC_KEY: 'p'.repeat(40), INTERNAL_SECRET: 'i'.repeat(32) });
  const waitedOn = { ...config.upstreams, ...config.readyAlso };
  expect(Object.keys(waitedOn).sort()).toEqual(Object.keys(urls).sort());
  for (const [name, url] of Object.entries(urls)) expect(waitedOn[name as keyof typeof waitedOn]).toBe(url);
});
