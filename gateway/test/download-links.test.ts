import { Writable } from 'node:stream';
import { createLogger, downloadTokenKey, type ServiceApp, signDownloadToken } from '@flatship/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { buildGateway } from '../src/app';
import { createUserDirectory, gatewayDeps, INTERNAL_SECRET, type StandInService, startStandInService } from './helpers';

let admin: StandInService;
let orders: StandInService;
let app: ServiceApp;
let written = '';
const users = createUserDirectory();
let session: string;
let adminSession: string;

const FILE_A = '/api/orders/download/v2/0b0e6c1e-4f7e-4d38-9d7e-0cbd1c1d0a11.pdf';
const FILE_B = '/api/orders/download/v2/5d0c8a47-1f5e-4a4b-8d9b-9c9f2b6f3e21.pdf';
const key = downloadTokenKey(INTERNAL_SECRET);
const linkToken = (path: string, sub = 'u1', at = Date.now()) =>
  signDownloadToken(key, { sub, ver: 1, path }, 300_000, at).token;

beforeAll(async () => {
  [admin, orders] = await Promise.all([startStandInService('admin'), startStandInService('orders')]);
  const sink = new Writable({
    write(chunk, _enc, done) {
      written += String(chunk);
      done();
    },
  });
  app = await buildGateway({
    ...gatewayDeps({
      upstreams: { auth: admin.url, admin: admin.url, orders: orders.url },
      tokenState: users.tokenState,
    }),
    logger: createLogger('gateway', 'info', sink),
  });
  await app.ready();
  session = users.add({ id: 'u1' });
  adminSession = users.add({ id: 'a1', role: 'admin' });
});
afterAll(async () => {
  await app.close();
  await Promise.all([admin, orders].map((s) => s.close()));
});
beforeEach(() => {
  for (const s of [admin, orders]) s.seen.length = 0;
  users.add({ id: 'u1' });
});

describe('a download link through the gateway', () => {
  test('its download token opens its path, and goes on to orders in the query', async () => {
    const token = linkToken(FILE_A);
    const res = await app.inject({ url: `${FILE_A}?token=${token}` });
    expect(res.statusCode).toBe(200);
    expect(orders.seen.map((s) => s.url)).toEqual([`${FILE_A}?token=${token}`]);
  });

  test('a session token in the query is refused on every route, before any service sees it', async () => {
    for (const url of [
      `${FILE_A}?token=${session}`,
      `${FILE_A}?%74oken=${session}`,
      `${FILE_A}?token=x&token=${session}`,
      `/api/orders/u1?token=${session}`,
      `/api/auth/users/details/u2?token=${adminSession}`,
    ]) {
      const res = await app.inject({ method: url.includes('details') ? 'POST' : 'GET', url });
      expect(res.statusCode, url).toBe(401);
    }
    expect(orders.seen.length + admin.seen.length).toBe(0);
  });

  test('a link for one file does not open another, nor any other route', async () => {
    const token = linkToken(FILE_A);
    for (const url of [`${FILE_B}?token=${token}`, `/api/orders/u1?token=${token}`]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code).toBe('DOWNLOAD_LINK_INVALID');
    }
    // Nor is it a session token.
    expect((await app.inject({ url: FILE_A, headers: { token } })).statusCode).toBe(401);
    expect(orders.seen).toHaveLength(0);
  });

  test('an expired link, or the link of a user blocked since, is refused', async () => {
    const expired = await app.inject({ url: `${FILE_A}?token=${linkToken(FILE_A, 'u1', Date.now() - 600_000)}` });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('DOWNLOAD_LINK_EXPIRED');
    const token = linkToken(FILE_A);
    users.add({ id: 'u1', activation: 'block' });
    const blocked = await app.inject({ url: `${FILE_A}?token=${token}` });
    expect(blocked.json().code).toBe('AUTH_ACCOUNT_BLOCKED');
    users.states.delete('u1');
    expect((await app.inject({ url: `${FILE_A}?token=${token}` })).json().code).toBe('AUTH_TOKEN_REVOKED');
    expect(orders.seen).toHaveLength(0);
  });

  test('none of those tokens reached the gateway log', async () => {
    await app.inject({ url: `${FILE_A}?token=${linkToken(FILE_A)}` });
    await app.inject({ url: `/api/orders/u1?ToKeN=${session}`, headers: { token: session } });
    expect(written).toContain('"req":');
    for (const secret of [session, adminSession, linkToken(FILE_A)]) {
      expect(written).not.toContain(secret.split('.')[2]!.slice(0, 20));
    }
    expect(written).not.toMatch(/eyJ[\w-]+\.[\w-]+/);
  });
});
