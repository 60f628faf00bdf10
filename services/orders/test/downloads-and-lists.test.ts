import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack } from './stack';
import { orderBody, postOrder, signToken, type TestUser, user } from './support';

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

const download = (name: string, token?: string) =>
  s.app.inject({ url: `/api/orders/download/v2/${name}${token ? `?token=${encodeURIComponent(token)}` : ''}` });

describe('GET /api/orders/download/v2/{pdfName}', () => {
  test('the owner gets the PDF inline, named after the tracking number, privately cached', async () => {
    const res = await download(pdfName, owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="label-${tracking}.pdf"`);
    expect(res.headers['cache-control']).toMatch(/^private/);
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  });

  test('an admin gets it too', async () => {
    const res = await download(pdfName, user(s, 'admin').token);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
  });

  test('another user gets the same 404 as for a file that does not exist', async () => {
    const other = user(s);
    const theirs = await download(pdfName, other.token);
    const missing = await download('00000000-0000-4000-8000-000000000000.pdf', other.token);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ code: 'FILE_NOT_FOUND', message: 'File not found' });
    expect(missing.json()).toEqual(theirs.json());
  });

  test.each([
    '..%2F..%2F..%2Fetc%2Fpasswd',
    `..%2F${'a'.repeat(32)}.pdf`,
    '..%2Flabels.pdf',
    'label.PDF',
    `..%2F..%2Flabels%2F${'0'.repeat(36)}.pdf`,
    `%2E%2E%2F%2E%2E%2F${'0'.repeat(36)}.pdf`,
  ])('a name that is not <uuid>.pdf (%s) is FILE_NOT_FOUND', async (name) => {
    const res = await download(name, owner.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('FILE_NOT_FOUND');
  });

  test('a name with a NUL in it is refused before any lookup, like every field with one', async () => {
    const res = await download(`${'0'.repeat(36)}.pdf%00.txt`, owner.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'pdfName contains a character that is not allowed',
    });
  });

  test('a name with real slashes in it is FILE_NOT_FOUND too', async () => {
    const res = await download(`x/../${pdfName}`.replace('../', 'y/'), owner.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('FILE_NOT_FOUND');
  });

  test('a missing, forged or foreign-key token is 401', async () => {
    expect((await download(pdfName)).statusCode).toBe(401);
    expect((await download(pdfName, 'not-a-token')).statusCode).toBe(401);
    const forged = signToken((await import('@flatship/kit/testing')).generateTokenKeys().privateKey, {
      sub: owner.id,
      role: 'user',
      ver: 1,
    });
    expect((await download(pdfName, forged)).statusCode).toBe(401);
  });

  test('the token also works in the header', async () => {
    const res = await s.app.inject({ url: `/api/orders/download/v2/${pdfName}`, headers: { token: owner.token } });
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
    });
    expect(items[1]).toMatchObject({ status: 'cancelled', tracking_number: '', pdfName: null });
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
