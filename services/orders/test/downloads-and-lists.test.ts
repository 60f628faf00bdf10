import { downloadTokenKey, signDownloadToken } from '@flatship/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack } from './stack';
import { INTERNAL_SECRET, orderBody, postOrder, signToken, type TestUser, user } from './support';

let s: Stack;
let owner: TestUser;
let pdfName: string;
let tracking: string;
beforeAll(async () => {
  s = await startStack();
  owner = user(s);
  await s.setBalance(owner.id, 100_00);
  const res = await postOrder(s, owner, orderBody(owner.id));
  ({ pdfName, tracking_number: tracking } = res.json().data);
});
afterAll(() => s.close());

/** A download link for `path` as the web app gets one: asked for with the session token, right before opening. */
async function linkFor(u: TestUser, path: string) {
  return s.app.inject({
    method: 'POST',
    url: '/api/orders/download-token',
    headers: { token: u.token },
    payload: { path },
  });
}
async function urlFor(u: TestUser, path: string): Promise<string> {
  const res = await linkFor(u, path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().url;
}
const pathOf = (name: string) => `/api/orders/download/v2/${name}`;
/** The label as a browser tab opens it: no header, the link's token in the query. */
const open = (url: string) => s.app.inject({ url });
/** A session token where a download token belongs. */
const download = (name: string, token?: string) =>
  s.app.inject({ url: `${pathOf(name)}${token ? `?token=${encodeURIComponent(token)}` : ''}` });

describe('GET /api/orders/download/v2/{pdfName}', () => {
  test('the owner gets the PDF inline, named after the tracking number, privately cached', async () => {
    const res = await open(await urlFor(owner, pathOf(pdfName)));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="label-${tracking}.pdf"`);
    expect(res.headers['cache-control']).toMatch(/^private/);
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  });

  test('an admin gets it too', async () => {
    const res = await open(await urlFor(user(s, 'admin'), pathOf(pdfName)));
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
  });

  test('another user gets no link to it: the same 404 as for a file that does not exist', async () => {
    const other = user(s);
    const theirs = await linkFor(other, pathOf(pdfName));
    const missing = await linkFor(other, pathOf('00000000-0000-4000-8000-000000000000.pdf'));
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ code: 'FILE_NOT_FOUND', message: 'File not found' });
    expect(missing.json()).toEqual(theirs.json());
  });

  test('a session token in the query is refused, however the name is spelled', async () => {
    for (const query of [
      `token=${owner.token}`,
      `%74oken=${owner.token}`,
      `token=x&token=${owner.token}`,
      `TOKEN=${owner.token}`,
    ]) {
      const res = await s.app.inject({ url: `${pathOf(pdfName)}?${query}` });
      expect(res.statusCode, query).toBe(401);
    }
  });

  test("a link for one label does not open another, the owner's own included", async () => {
    const res = await postOrder(s, owner, orderBody(owner.id));
    const second: string = res.json().data.pdfName;
    const first = new URL(await urlFor(owner, pathOf(pdfName)), 'http://x');
    const refused = await s.app.inject({ url: `${pathOf(second)}${first.search}` });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('DOWNLOAD_LINK_INVALID');
    // Nor any other route.
    const list = await s.app.inject({ url: `/api/orders/${owner.id}${first.search}` });
    expect(list.statusCode).toBe(401);
  });

  test('an expired link, or one made with another key, is refused', async () => {
    const key = downloadTokenKey(INTERNAL_SECRET);
    const claims = { sub: owner.id, ver: 1, path: pathOf(pdfName) };
    const old = signDownloadToken(key, claims, 5 * 60_000, Date.now() - 6 * 60_000).token;
    const expired = await download(pdfName, old);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('DOWNLOAD_LINK_EXPIRED');
    const forged = signDownloadToken(downloadTokenKey('not-the-internal-secret'), claims, 60_000).token;
    expect((await download(pdfName, forged)).json().code).toBe('DOWNLOAD_LINK_INVALID');
  });

  test('a link dies with its session: a blocked or deleted user cannot use one made before', async () => {
    const u = user(s);
    await s.setBalance(u.id, 100_00);
    const name: string = (await postOrder(s, u, orderBody(u.id))).json().data.pdfName;
    const url = await urlFor(u, pathOf(name));
    expect((await open(url)).statusCode).toBe(200);
    s.states.set(u.id, { id: u.id, role: 'user', activation: 'block', tokenVersion: 1 });
    expect((await open(url)).json().code).toBe('AUTH_ACCOUNT_BLOCKED');
    s.states.delete(u.id);
    expect((await open(url)).json().code).toBe('AUTH_TOKEN_REVOKED');
  });

  test('a link is asked for with the session token, and only for a download path', async () => {
    const anonymous = await s.app.inject({
      method: 'POST',
      url: '/api/orders/download-token',
      payload: { path: pathOf(pdfName) },
    });
    expect(anonymous.statusCode).toBe(401);
    for (const path of [
      '/api/orders/recent/x',
      `/api/orders/download/zip/${pdfName}`,
      `${pathOf(pdfName)}?a=1`,
      '%E0%A4%A',
    ]) {
      const res = await linkFor(owner, path);
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'path is not a download link' });
    }
    const reply = (await linkFor(owner, pathOf(pdfName))).json();
    expect(reply).toEqual({
      token: expect.any(String),
      url: `${pathOf(pdfName)}?token=${reply.token}`,
      expiresAt: expect.any(String),
    });
    const ttl = Date.parse(reply.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 1000);
  });

  test.each([
    '..%2F..%2F..%2Fetc%2Fpasswd',
    `..%2F${'a'.repeat(32)}.pdf`,
    '..%2Flabels.pdf',
    'label.PDF',
    `..%2F..%2Flabels%2F${'0'.repeat(36)}.pdf`,
    `%2E%2E%2F%2E%2E%2F${'0'.repeat(36)}.pdf`,
  ])('a name that is not <uuid>.pdf (%s) is FILE_NOT_FOUND', async (name) => {
    const res = await s.app.inject({ url: pathOf(name), headers: { token: owner.token } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('FILE_NOT_FOUND');
  });

  test('a name with a NUL in it is refused before any lookup, like every field with one', async () => {
    const res = await s.app.inject({ url: pathOf(`${'0'.repeat(36)}.pdf%00.txt`), headers: { token: owner.token } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'pdfName contains a character that is not allowed',
    });
  });

  test('a name with real slashes in it is FILE_NOT_FOUND too', async () => {
    const res = await s.app.inject({
      url: pathOf(`x/../${pdfName}`.replace('../', 'y/')),
      headers: { token: owner.token },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('FILE_NOT_FOUND');
  });

  test('a missing, forged or foreign-key session token is 401', async () => {
    const get = (token?: string) => s.app.inject({ url: pathOf(pdfName), headers: token ? { token } : {} });
    expect((await get()).statusCode).toBe(401);
    expect((await get('not-a-token')).statusCode).toBe(401);
    const forged = signToken((await import('@flatship/kit/testing')).generateTokenKeys().privateKey, {
      sub: owner.id,
      role: 'user',
      ver: 1,
    });
    expect((await get(forged)).statusCode).toBe(401);
  });

  test('the session token works in the header, as on every call', async () => {
    const res = await s.app.inject({ url: pathOf(pdfName), headers: { token: owner.token } });
    expect(res.statusCode).toBe(200);
  });
});

describe('order lists', () => {
  test('recent, total and list show the user’s labels newest first, in the OrderListItem shape', async () => {
    const u = user(s);
    await s.setBalance(u.id, 100_00);
    const names = ['First', 'Second', 'FAIL', 'Fourth'];
    for (const name of names) await postOrder(s, u, orderBody(u.id, { receiver: { receiver_name: name } }));

    const recent = await s.app.inject({ url: `/api/orders/recent/${u.id}`, headers: { token: u.token } });
    const list = await s.app.inject({ url: `/api/orders/${u.id}`, headers: { token: u.token } });
    const total = await s.app.inject({ url: `/api/orders/total/${u.id}`, headers: { token: u.token } });
    expect(recent.statusCode).toBe(200);
    expect(total.json()).toEqual({ totalOrders: 3 });

    const items = recent.json().recentOrders;
    expect(items.map((o: { receiver: { receiver_name: string } }) => o.receiver.receiver_name)).toEqual(
      [...names].reverse(),
    );
    expect(list.json().orders).toEqual(items);
    expect(items[0]).toEqual({
      _id: expect.any(String),
      courier: 'usps',
      service_name: 'USPS Priority Mail',
      status: 'completed',
      sender: { sender_name: 'Ada Sender' },
      receiver: { receiver_name: 'Fourth' },
      tracking_number: expect.stringMatching(/^\d{22,34}$/),
      pdfName: expect.stringMatching(/\.pdf$/),
      price: 8.95,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      refundStatus: null,
      refundReason: null,
      refundable: true,
      refundBlockedReason: null,
      trackingStage: 'pre_transit',
    });
    expect(items[1]).toMatchObject({
      status: 'cancelled',
      tracking_number: '',
      pdfName: null,
      refundable: false,
      trackingStage: null,
    });
    const times = items.map((o: { createdAt: string }) => o.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  test('the recent list holds the latest 25', async () => {
    const u = user(s);
    await s.setBalance(u.id, 1000_00);
    await Promise.all(Array.from({ length: 27 }, () => postOrder(s, u, orderBody(u.id))));
    const recent = await s.app.inject({ url: `/api/orders/recent/${u.id}`, headers: { token: u.token } });
    expect(recent.json().recentOrders).toHaveLength(25);
    const list = await s.app.inject({ url: `/api/orders/${u.id}`, headers: { token: u.token } });
    expect(list.json().orders).toHaveLength(27);
  });

  test.each(['recent/', 'total/', ''])(
    'another user’s /api/orders/%s{userId} is 403; an admin may read it',
    async (p) => {
      const other = user(s);
      const res = await s.app.inject({ url: `/api/orders/${p}${owner.id}`, headers: { token: other.token } });
      expect(res.statusCode).toBe(403);
      const admin = await s.app.inject({
        url: `/api/orders/${p}${owner.id}`,
        headers: { token: user(s, 'admin').token },
      });
      expect(admin.statusCode).toBe(200);
    },
  );
});
