import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadLauncherConfig } from '../src/config';
import { productUrl, publicUrl } from '../src/paths';
import { SERVICE_REGISTRY, type StackContext } from '../src/services';
import { createStateStore, generatePassword } from '../src/state';
import { webBuildReason } from '../src/web-build';

test('the printed URL uses localhost for loopback and wildcard hosts, and the host otherwise', () => {
  expect(publicUrl('127.0.0.1', 8080)).toBe('http://localhost:8080');
  expect(publicUrl('0.0.0.0', 9000)).toBe('http://localhost:9000');
  expect(publicUrl('192.168.1.20', 8080)).toBe('http://192.168.1.20:8080');
  expect(publicUrl('fe80::1', 8080)).toBe('http://[fe80::1]:8080');
});

test("emailed links point at the printed address, or at the operator's PUBLIC_URL when one is set", () => {
  expect(productUrl('127.0.0.1', 9000)).toBe('http://localhost:9000');
  expect(productUrl('0.0.0.0', 9000, '')).toBe('http://localhost:9000');
  expect(productUrl('127.0.0.1', 9000, 'https://ship.example.com')).toBe('https://ship.example.com');
  // The launcher reads it with its other settings (infra/src/config.ts), so the configuration reference lists it.
  expect(loadLauncherConfig({ PUBLIC_URL: 'https://ship.example.com' }).PUBLIC_URL).toBe('https://ship.example.com');
  expect(loadLauncherConfig({ PUBLIC_URL: '' }).PUBLIC_URL).toBeUndefined();
  const auth = SERVICE_REGISTRY.find((s) => s.name === 'auth');
  const ctx: StackContext = {
    databaseUrl: 'postgres://x@127.0.0.1:5432/flatship',
    jwtPublicKey: 'pub',
    jwtPrivateKey: 'priv',
    internalSecret: 'internal',
    logLevel: 'info',
    host: '127.0.0.1',
    port: 9000,
    publicUrl: productUrl('127.0.0.1', 9000),
    staticDir: '/web/dist',
    filesDir: '/data/files',
    adminEmail: 'admin@flatship.local',
    urls: {},
    btcpay: { apiKey: 'k', webhookSecret: 's', dataFile: '/data/btcpay-invoices.json', publicUrl: '' },
  };
  expect(auth?.env(ctx, { port: 4101 }).PUBLIC_URL).toBe('http://localhost:9000');
});

test('configuration has the documented defaults and names every bad variable', () => {
  const config = loadLauncherConfig({});
  expect(config).toMatchObject({
    PORT: 8080,
    HOST: '127.0.0.1',
    ADMIN_EMAIL: 'admin@flatship.local',
    LOG_LEVEL: 'info',
  });
  expect(config.ADMIN_PASSWORD).toBeUndefined();
  expect(config.dataDir).toMatch(/\/\.data$/);
  let message = '';
  try {
    loadLauncherConfig({ PORT: '70000', LOG_LEVEL: 'loud', ADMIN_PASSWORD: 'short' });
  } catch (e) {
    message = (e as Error).message;
  }
  expect(message).toContain('PORT="70000" is invalid');
  expect(message).toContain('LOG_LEVEL="loud" is invalid');
  expect(message).toContain('ADMIN_PASSWORD (value not shown) is invalid');
  expect(message).not.toContain('short');
});

test('generated admin passwords are long, mixed and different every time', () => {
  const passwords = Array.from({ length: 50 }, () => generatePassword());
  for (const p of passwords) expect(p).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*[0-9])[A-Za-z0-9]{20}$/);
  expect(new Set(passwords).size).toBe(50);
});

test('secrets are created once, private to the owner, and reused afterwards', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'flatship-state-'));
  try {
    const store = createStateStore(dir);
    const first = await store.loadOrCreateSecrets();
    const second = await createStateStore(dir).loadOrCreateSecrets();
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.secrets).toEqual(first.secrets);
    expect(first.secrets.jwtPublicKey).toContain('BEGIN PUBLIC KEY');
    expect((await stat(join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
    await store.updateState({ pgPort: 5555 });
    await store.updateState({ admin: { email: 'a@b.c', recordedAt: 'now' } });
    expect(await store.readState()).toEqual({ pgPort: 5555, admin: { email: 'a@b.c', recordedAt: 'now' } });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the web app is rebuilt only when its build is missing or older than its sources', async () => {
  const root = await mkdtemp(join(tmpdir(), 'flatship-web-'));
  try {
    await mkdir(join(root, 'web', 'src', 'features'), { recursive: true });
    await writeFile(join(root, 'web', 'package.json'), '{}');
    await writeFile(join(root, 'web', 'index.html'), '<html></html>');
    await writeFile(join(root, 'web', 'src', 'features', 'page.tsx'), 'export {}');
    expect(await webBuildReason(root)).toBe('web/dist is missing');

    await mkdir(join(root, 'web', 'dist'));
    await writeFile(join(root, 'web', 'dist', 'index.html'), '<html></html>');
    const past = new Date(Date.now() - 60_000);
    for (const p of ['index.html', 'src', 'src/features', 'src/features/page.tsx']) {
      await utimes(join(root, 'web', p), past, past);
    }
    expect(await webBuildReason(root)).toBeNull();

    await writeFile(join(root, 'web', 'src', 'features', 'page.tsx'), 'export const changed = 1;');
    expect(await webBuildReason(root)).toBe('web sources changed since the last build');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
