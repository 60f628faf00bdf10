import type { ServiceApp } from '@flatship/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildGateway } from '../src/app';
import { GATEWAY_MESSAGES } from '../src/messages';
import { createUserDirectory, gatewayDeps, type StandInService, startStandInService } from './helpers';

const MAX = 3;
const RATE_LIMITED = { code: 'RATE_LIMITED', message: GATEWAY_MESSAGES.rateLimited };
let auth: StandInService;
let admin: StandInService;
const users = createUserDirectory();

beforeAll(async () => {
  [auth, admin] = await Promise.all([startStandInService('auth'), startStandInService('admin')]);
});
afterAll(async () => {
  await Promise.all([auth.close(), admin.close()]);
});

async function freshGateway(): Promise<ServiceApp> {
  const app = await buildGateway(
    gatewayDeps({ upstreams: { auth: auth.url, admin: admin.url }, tokenState: users.tokenState, rateLimitMax: MAX }),
  );
  await app.ready();
  return app;
}

const login = (app: ServiceApp, email: string, ip = '127.0.0.1') =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    payload: { email, password: 'wrong-password' },
  });

/** A login whose body bytes and content type the test chooses. */
const rawLogin = (
  app: ServiceApp,
  body: string | Buffer,
  ip: string,
  contentType: string | null = 'application/json',
) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    headers: contentType === null ? {} : { 'content-type': contentType },
    payload: body,
  });

describe('rate limits', () => {
  test('login: after the limit from one address, 429 with the message, and auth no longer sees the attempts', async () => {
    const app = await freshGateway();
    try {
      auth.seen.length = 0;
      for (let i = 0; i < MAX; i++) expect((await login(app, `user${i}@example.com`)).statusCode).toBe(200);
      const res = await login(app, 'another@example.com');
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(RATE_LIMITED);
      expect(res.headers['retry-after']).toBeDefined();
      expect(auth.seen).toHaveLength(MAX);
      // The body still reaches auth intact when allowed.
      expect(JSON.parse(auth.seen[0]!.body)).toEqual({ email: 'user0@example.com', password: 'wrong-password' });
    } finally {
      await app.close();
    }
  });

  test('login: guesses against one email from many addresses are limited too, whatever the case of the email', async () => {
    const app = await freshGateway();
    try {
      for (let i = 0; i < MAX; i++) {
        expect(
          (await login(app, i % 2 ? 'Victim@Example.com' : 'victim@example.com ', `10.0.0.${i + 1}`)).statusCode,
        ).toBe(200);
      }
      const res = await login(app, 'VICTIM@example.com', '10.0.0.99');
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(RATE_LIMITED);
      // Another account from a fresh address is unaffected.
      expect((await login(app, 'someone@example.com', '10.0.0.100')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  test('login: a body starting with a byte order mark counts against its email like any other', async () => {
    const app = await freshGateway();
    try {
      auth.seen.length = 0;
      const bom = Buffer.from([0xef, 0xbb, 0xbf]);
      const attempt = (i: number) =>
        rawLogin(
          app,
          Buffer.concat([bom, Buffer.from(JSON.stringify({ email: 'victim@example.com', password: `guess-${i}` }))]),
          `10.1.0.${i + 1}`,
        );
      for (let i = 0; i < MAX; i++) expect((await attempt(i)).statusCode).toBe(200);
      const res = await attempt(MAX);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(RATE_LIMITED);
      expect(auth.seen).toHaveLength(MAX);
      // What auth reads is exactly what was counted.
      expect(JSON.parse(auth.seen[0]!.body)).toEqual({ email: 'victim@example.com', password: 'guess-0' });
    } finally {
      await app.close();
    }
  });

  test('login: every way of writing one email in JSON shares one count', async () => {
    const app = await freshGateway();
    try {
      auth.seen.length = 0;
      const spellings: [string, string][] = [
        ['application/json', '{"email":"\\u0076ictim@example.com","password":"a"}'],
        [
          'application/json; charset=UTF-8',
          '{"email":"decoy@example.com","password":"b","email":"victim@example.com"}',
        ],
        ['Application/JSON', '\t{ "password": "c", "email": "\\tVICTIM@example.COM\\n" }'],
        ['application/json', '\ufeff{"email":"victim@example.com","password":"d"}'],
        ['application/json;charset="utf-8"', '{"email":"Victim@Example.com ","password":"e"}'],
      ];
      const codes: number[] = [];
      for (const [i, [type, body]] of spellings.entries()) {
        codes.push((await rawLogin(app, body, `10.2.0.${i + 1}`, type)).statusCode);
      }
      expect(codes).toEqual([200, 200, 200, 429, 429]);
      // auth was handed the email that was counted, never the decoy.
      expect(auth.seen.map((s) => JSON.parse(s.body).email.trim().toLowerCase())).toEqual([
        'victim@example.com',
        'victim@example.com',
        'victim@example.com',
      ]);
      expect(auth.seen.some((s) => s.body.includes('decoy'))).toBe(false);
    } finally {
      await app.close();
    }
  });

  test('login: a body the gateway cannot read as JSON with an email is refused and never reaches auth', async () => {
    const app = await freshGateway();
    try {
      auth.seen.length = 0;
      const utf16 = Buffer.from('{"email":"victim@example.com","password":"x"}', 'utf16le');
      const cases: [string | null, string | Buffer][] = [
        ['application/json; charset=utf-16le', utf16],
        ['application/json; charset=utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), utf16])],
        ['application/x-www-form-urlencoded', 'email=victim%40example.com&password=x'],
        ['text/plain', '{"email":"victim@example.com","password":"x"}'],
        [null, '{"email":"victim@example.com","password":"x"}'],
        ['application/json', '{"email":["victim@example.com"],"password":"x"}'],
        ['application/json', '{"email":{"$ne":null},"password":"x"}'],
        ['application/json', '{"password":"x"}'],
        ['application/json', '["victim@example.com","x"]'],
        ['application/json', '"victim@example.com"'],
        ['application/json', '\ufeff\ufeff{"email":"victim@example.com","password":"x"}'],
        ['application/json', '{"email":"victim@example.com",'],
      ];
      for (const [i, [type, body]] of cases.entries()) {
        const res = await rawLogin(app, body, `10.3.0.${i + 1}`, type);
        expect(res.statusCode, `${type} ${body.toString()}`).toBe(400);
        expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: GATEWAY_MESSAGES.badLoginBody });
      }
      // JSON whose bytes are not UTF-8 is refused naming the field that held them, as every service does.
      const notUtf8: [Buffer, string][] = [
        [
          Buffer.from([0x7b, 0x22, 0x65, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
          'body has a field name that is not valid UTF-8 text',
        ],
        [
          Buffer.concat([
            Buffer.from('{"email":"victim@example.com","password":"a'),
            Buffer.from([0xff, 0xfe]),
            Buffer.from('b"}'),
          ]),
          'password is not valid UTF-8 text',
        ],
        [
          Buffer.concat([Buffer.from('{"email":"vic'), Buffer.from([0xc3]), Buffer.from('@example.com"}')]),
          'email is not valid UTF-8 text',
        ],
      ];
      for (const [i, [body, message]] of notUtf8.entries()) {
        const res = await rawLogin(app, body, `10.3.1.${i + 1}`);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message });
      }
      expect(auth.seen).toHaveLength(0);
    } finally {
      await app.close();
    }
  });

  test('register, referral apply and login-as are limited', async () => {
    const app = await freshGateway();
    const adminToken = users.add({ id: 'admin1', role: 'admin' });
    try {
      const calls = [
        () => app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'n@example.com' } }),
        () =>
          app.inject({
            method: 'POST',
            url: '/api/invite/referral/apply',
            headers: { token: adminToken },
            payload: { referralCode: 'X' },
          }),
        () => app.inject({ method: 'POST', url: '/api/auth/login-as-user/u7', headers: { token: adminToken } }),
      ];
      for (const call of calls) {
        for (let i = 0; i < MAX; i++) expect((await call()).statusCode).toBe(200);
        const res = await call();
        expect(res.statusCode).toBe(429);
        expect(res.json()).toEqual(RATE_LIMITED);
      }
      expect(admin.seen.filter((s) => s.url === '/api/auth/login-as-user/u7')).toHaveLength(MAX);
    } finally {
      await app.close();
    }
  });

  test('forgot password: limited per address like the login, and needs no token', async () => {
    const app = await freshGateway();
    try {
      auth.seen.length = 0;
      const ask = (i: number) =>
        app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: `who${i}@example.com` } });
      for (let i = 0; i < MAX; i++) expect((await ask(i)).statusCode).toBe(200);
      const res = await ask(MAX);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(RATE_LIMITED);
      expect(auth.seen).toHaveLength(MAX);
      expect(JSON.parse(auth.seen[0]!.body)).toEqual({ email: 'who0@example.com' });
    } finally {
      await app.close();
    }
  });

  test('forgot password: one inbox cannot be flooded from many addresses, and logins are not locked by it', async () => {
    const app = await freshGateway();
    try {
      const ask = (ip: string, email = 'Victim@example.com') =>
        app.inject({ method: 'POST', url: '/api/auth/forgot-password', remoteAddress: ip, payload: { email } });
      for (let i = 0; i < MAX; i++) expect((await ask(`10.3.0.${i + 1}`)).statusCode).toBe(200);
      const res = await ask('10.3.0.99', 'victim@EXAMPLE.com ');
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(RATE_LIMITED);
      expect((await login(app, 'victim@example.com', '10.3.1.1')).statusCode).toBe(200);
      const unreadable = await app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        remoteAddress: '10.3.2.1',
        headers: { 'content-type': 'text/plain' },
        payload: 'victim@example.com',
      });
      expect(unreadable.statusCode).toBe(400);
      expect(unreadable.json()).toEqual({ code: 'BAD_REQUEST', message: GATEWAY_MESSAGES.badResetBody });
    } finally {
      await app.close();
    }
  });

  test('reset password: limited per address, and needs no token', async () => {
    const app = await freshGateway();
    try {
      const use = () =>
        app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: 'guess', password: 'x' } });
      for (let i = 0; i < MAX; i++) expect((await use()).statusCode).toBe(200);
      const res = await use();
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(RATE_LIMITED);
    } finally {
      await app.close();
    }
  });

  test('ordinary calls are not limited', async () => {
    const app = await freshGateway();
    const t = users.add({ id: 'busy' });
    try {
      for (let i = 0; i < MAX * 3; i++) {
        expect((await app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token: t } })).statusCode).toBe(
          200,
        );
      }
    } finally {
      await app.close();
    }
  });
});
