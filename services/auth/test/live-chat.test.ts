import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chatIdentityHash } from '../src/domain/chat-identity';
import { MESSAGES } from '../src/domain/messages';
import { register, startTestAuth, type TestAuth } from './support';

const WIDGET = { baseUrl: 'https://chat.example.com', websiteToken: 'web-token-1' };
const HMAC_TOKEN = 'inbox-hmac-token';

describe('the identity hash', () => {
  test('is the hex HMAC-SHA256 of the identifier (RFC 4231 test case 2)', () => {
    expect(chatIdentityHash('what do ya want for nothing?', 'Jefe')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
});

describe('with live chat configured', () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await startTestAuth({ liveChat: { widget: WIDGET, hmacToken: HMAC_TOKEN } });
  });
  afterAll(() => t.close());

  test('the public client config names the widget, without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/client-config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ chatwoot: WIDGET });
  });

  test("the identity is the signed-in user's, signed with the inbox's HMAC token", async () => {
    const user = await register(t.app, { name: 'Chatty Cathy' });
    const res = await t.app.inject({ method: 'GET', url: '/api/chatwoot/identity', headers: { token: user.token } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      identifier: user.user._id,
      email: user.email,
      name: 'Chatty Cathy',
      avatar: '',
      hash: chatIdentityHash(user.user._id, HMAC_TOKEN),
    });
    expect((res.json() as { hash: string }).hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the identity needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/chatwoot/identity' });
    expect(res.statusCode).toBe(401);
  });
});

describe('without live chat', () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await startTestAuth();
  });
  afterAll(() => t.close());

  test('the client config says so and the identity is not offered', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/client-config' })).json()).toEqual({ chatwoot: null });
    const user = await register(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/api/chatwoot/identity', headers: { token: user.token } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'LIVE_CHAT_NOT_CONFIGURED', message: MESSAGES.liveChatNotConfigured });
  });
});
