import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuthTokenStateFetcher, createCachedTokenState, type ServiceApp } from '@flatship/kit';
import { TOPICS } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// The real gateway, wired as its main.ts wires it: it is the one that sees every token and sends the audit events.
import { buildGateway } from '../../../gateway/src/app';
import { ADDRESS_FORM } from '../../auth/test/support';
import { eventually, type Registered, register, registerAdmin, type Stack, startStack } from './support';

let s: Stack;
let admin: Registered;
let gateway: ServiceApp;
beforeAll(async () => {
  s = await startStack();
  admin = await registerAdmin(s);
  const adminUrl = await s.admin.listen({ host: '127.0.0.1', port: 0 });
  const authUrl = `http://127.0.0.1:${(s.auth.server.address() as { port: number }).port}`;
  gateway = await buildGateway({
    logger: false,
    tokenState: createCachedTokenState(createAuthTokenStateFetcher(s.authClient, { warn: () => {} }), 0),
    impersonationActions: (event) => s.bus.publish(TOPICS.impersonationAction, [{ key: event.userId, value: event }]),
    config: {
      upstreams: { auth: authUrl, admin: adminUrl },
      staticDir: mkdtempSync(join(tmpdir(), 'admin-audit-spa-')),
      rateLimit: { max: 1000, timeWindow: '1 minute' },
      trustProxy: false,
      jwtPublicKey: s.keys.publicKey,
      internalSecret: 'admin-audit-internal-secret',
      upstreamReadyTimeoutMs: 500,
      cspExtraOrigins: [],
    },
  });
  await gateway.ready();
});
afterAll(async () => {
  await gateway.close();
  await s.close();
});

const audit = (query = '', token = admin.token) =>
  gateway.inject({ url: `/api/admin/audit${query}`, headers: { token } });

describe('GET /api/admin/audit', () => {
  test("an address saved with a login-as token is listed with both ids; the user's own change is not", async () => {
    const user = await register(s, 'Audited Ann');
    const loginAs = await gateway.inject({
      method: 'POST',
      url: `/api/auth/login-as-user/${user.user._id}`,
      headers: { token: admin.token },
    });
    expect(loginAs.statusCode).toBe(200);
    const asUser = loginAs.json().token as string;

    const saved = await gateway.inject({
      method: 'POST',
      url: `/api/auth/save-address/${user.user._id}`,
      headers: { token: asUser },
      payload: ADDRESS_FORM,
    });
    expect(saved.statusCode).toBeLessThan(300);
    const own = await gateway.inject({
      method: 'POST',
      url: `/api/auth/save-address/${user.user._id}`,
      headers: { token: user.token },
      payload: { ...ADDRESS_FORM, address_id: 'Home' },
    });
    expect(own.statusCode).toBeLessThan(300);
    // A read made as the user is not a change.
    await gateway.inject({ url: `/api/auth/get-address/${user.user._id}`, headers: { token: asUser } });

    const reply = await eventually(async () => {
      const res = await audit(`?userId=${user.user._id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().totalCount).toBe(1);
      return res.json();
    });
    expect(reply.entries).toEqual([
      {
        _id: expect.any(String),
        at: expect.any(String),
        adminId: admin.user._id,
        adminEmail: admin.email,
        userId: user.user._id,
        userEmail: user.email,
        method: 'POST',
        path: `/api/auth/save-address/${user.user._id}`,
        status: saved.statusCode,
      },
    ]);
    // Nothing else arrives late: the user's own save stays out.
    await new Promise((r) => setTimeout(r, 500));
    expect((await audit(`?userId=${user.user._id}`)).json().totalCount).toBe(1);
    expect(
      (await audit(`?adminId=${admin.user._id}`)).json().entries.map((e: { userId: string }) => e.userId),
    ).toContain(user.user._id);
  });

  test('a redelivered event is one entry; newest first; paged', async () => {
    const user = await register(s, 'Paged Pete');
    const base = { userId: user.user._id, adminId: admin.user._id, method: 'POST', status: 200 };
    const events = [1, 2, 3].map((i) => ({
      ...base,
      path: `/api/orders/create/${i}`,
      at: new Date(Date.UTC(2026, 0, i)).toISOString(),
    }));
    await s.bus.publish(
      TOPICS.impersonationAction,
      [...events, events[0]].map((e) => ({ key: e!.userId, value: e })),
    );
    const page = await eventually(async () => {
      const res = (await audit(`?userId=${user.user._id}&limit=2`)).json();
      expect(res.totalCount).toBe(3);
      return res;
    });
    expect(page.entries.map((e: { path: string }) => e.path)).toEqual(['/api/orders/create/3', '/api/orders/create/2']);
    const second = (await audit(`?userId=${user.user._id}&limit=2&page=2`)).json();
    expect(second.entries.map((e: { path: string }) => e.path)).toEqual(['/api/orders/create/1']);
  });

  test('only admins may read it; a malformed filter is refused', async () => {
    const user = await register(s);
    expect((await audit('', user.token)).statusCode).toBe(403);
    expect((await gateway.inject({ url: '/api/admin/audit' })).statusCode).toBe(401);
    expect((await audit('?userId=nope')).statusCode).toBe(400);
    expect((await audit('?limit=500')).statusCode).toBe(400);
  });
});
