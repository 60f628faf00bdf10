import type { TokenState } from '@flatship/proto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/app';
import { type AuthContext, authPlugin, type TokenStateSource } from '../src/auth';
import {
  DOWNLOAD_MESSAGES,
  downloadTokenKey,
  downloadTokenPlugin,
  readDownloadToken,
  signDownloadToken,
} from '../src/download-token';
import { generateTokenKeys } from '../src/testing/keys';

const SECRET = 'test-internal-secret-0123456789';
const keys = generateTokenKeys();
const states = new Map<string, TokenState>();
const tokenState: TokenStateSource = { get: async (id) => states.get(id) ?? null };
let app: ServiceApp;

const FILE_A = '/api/files/a.pdf';
const FILE_B = '/api/files/b.pdf';
const userAuth: AuthContext = { userId: 'u1', role: 'user', tokenVersion: 1 };

beforeAll(async () => {
  app = createServiceApp({ name: 'demo', logger: false });
  await app.register(authPlugin, { publicKey: keys.publicKey, privateKey: keys.privateKey, tokenState });
  await app.register(downloadTokenPlugin, { internalSecret: SECRET, tokenState, ttlMs: 60_000 });
  app.get('/api/files/:name', { onRequest: [app.requireDownloader] }, async (req) => ({ by: req.auth?.userId }));
  app.get('/api/other', { onRequest: [app.requireUser] }, async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app.close());
beforeEach(() => {
  states.clear();
  states.set('u1', { id: 'u1', role: 'user', activation: 'allow', tokenVersion: 1 });
  states.set('a1', { id: 'a1', role: 'admin', activation: 'allow', tokenVersion: 4, impersonationVersion: 2 });
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });
const session = () => app.jwt.sign({ sub: 'u1', role: 'user', ver: 1 });

describe('a download token', () => {
  test('opens the one path it was issued for, as its user', async () => {
    const { token, expiresAt } = app.issueDownloadToken(userAuth, FILE_A);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(55_000);
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(61_000);
    const res = await get(`${FILE_A}?token=${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ by: 'u1' });
  });

  test('is refused for another file, and on any other route', async () => {
    const { token } = app.issueDownloadToken(userAuth, FILE_A);
    const other = await get(`${FILE_B}?token=${token}`);
    expect(other.statusCode).toBe(401);
    expect(other.json()).toEqual({ code: 'DOWNLOAD_LINK_INVALID', message: DOWNLOAD_MESSAGES.invalid });
    expect((await get(`/api/other?token=${token}`)).statusCode).toBe(401);
    const asSession = await get('/api/other', { token });
    expect(asSession.statusCode).toBe(401);
    expect(asSession.json().code).toBe('AUTH_INVALID_TOKEN');
  });

  test('a path spelled with escapes is the same path; the query never counts', async () => {
    const { token } = app.issueDownloadToken(userAuth, '/api/files/label two.pdf');
    expect((await get(`/api/files/label%20two.pdf?token=${token}`)).statusCode).toBe(200);
    expect((await get(`/api/files/label%20two.pdf?x=1&token=${token}`)).statusCode).toBe(200);
  });

  test('expires', async () => {
    const key = downloadTokenKey(SECRET);
    const { token } = signDownloadToken(key, { sub: 'u1', ver: 1, path: FILE_A }, 60_000, Date.now() - 120_000);
    const res = await get(`${FILE_A}?token=${token}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'DOWNLOAD_LINK_EXPIRED', message: DOWNLOAD_MESSAGES.expired });
  });

  test('made with another secret, altered, or repeated in the query: refused', async () => {
    const foreign = signDownloadToken(
      downloadTokenKey('another-secret-0123456789'),
      {
        sub: 'u1',
        ver: 1,
        path: FILE_A,
      },
      60_000,
    ).token;
    const { token } = app.issueDownloadToken(userAuth, FILE_A);
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...claims, path: FILE_B })).toString('base64url');
    for (const url of [
      `${FILE_A}?token=${foreign}`,
      `${FILE_B}?token=${h}.${widened}.${s}`,
      `${FILE_A}?token=${h}.${p}.`,
      `${FILE_A}?token=${token}&token=${token}`,
      `${FILE_A}?token=x&token=${token}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code).toBe('DOWNLOAD_LINK_INVALID');
    }
  });

  test('ends with the session: blocked, deleted, or token version bumped', async () => {
    const { token } = app.issueDownloadToken(userAuth, FILE_A);
    states.set('u1', { id: 'u1', role: 'user', activation: 'block', tokenVersion: 1 });
    expect((await get(`${FILE_A}?token=${token}`)).json().code).toBe('AUTH_ACCOUNT_BLOCKED');
    states.set('u1', { id: 'u1', role: 'user', activation: 'allow', tokenVersion: 2 });
    expect((await get(`${FILE_A}?token=${token}`)).json().code).toBe('AUTH_TOKEN_REVOKED');
    states.delete('u1');
    expect((await get(`${FILE_A}?token=${token}`)).json().code).toBe('AUTH_TOKEN_REVOKED');
  });

  test('made while an admin is signed in as the user: ends when the admin is no longer one', async () => {
    const { token } = app.issueDownloadToken({ ...userAuth, impersonatorId: 'a1', impersonationVersion: 2 }, FILE_A);
    expect((await get(`${FILE_A}?token=${token}`)).statusCode).toBe(200);
    states.set('a1', { id: 'a1', role: 'user', activation: 'allow', tokenVersion: 5 });
    expect((await get(`${FILE_A}?token=${token}`)).json().code).toBe('AUTH_TOKEN_REVOKED');
    states.set('a1', { id: 'a1', role: 'admin', activation: 'block', tokenVersion: 5 });
    expect((await get(`${FILE_A}?token=${token}`)).json().code).toBe('AUTH_TOKEN_REVOKED');
  });

  test('made while an admin is signed in as the user: ends when the admin goes back to their own account', async () => {
    const { token } = app.issueDownloadToken({ ...userAuth, impersonatorId: 'a1', impersonationVersion: 2 }, FILE_A);
    expect((await get(`${FILE_A}?token=${token}`)).statusCode).toBe(200);
    // Back to admin bumps the admin's impersonation version: every link of that visit ends with it.
    states.set('a1', { id: 'a1', role: 'admin', activation: 'allow', tokenVersion: 4, impersonationVersion: 3 });
    expect((await get(`${FILE_A}?token=${token}`)).json().code).toBe('AUTH_TOKEN_REVOKED');
    // A link signed for a visit without a version (made before versions existed) is not honoured either.
    const key = downloadTokenKey(SECRET);
    const { token: unversioned } = signDownloadToken(key, { sub: 'u1', ver: 1, path: FILE_A, imp: 'a1' }, 60_000);
    expect((await get(`${FILE_A}?token=${unversioned}`)).json().code).toBe('AUTH_TOKEN_REVOKED');
  });

  test('reads back what was signed, and nothing unsigned', () => {
    const key = downloadTokenKey(SECRET);
    const { token } = signDownloadToken(key, { sub: 'u1', ver: 3, path: FILE_A, imp: 'a1' }, 60_000);
    expect(readDownloadToken(key, token)).toMatchObject({ sub: 'u1', ver: 3, path: FILE_A, imp: 'a1' });
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${token.split('.')[1]}.`;
    expect(() => readDownloadToken(key, none)).toThrow(DOWNLOAD_MESSAGES.invalid);
  });
});

describe('a download route', () => {
  test('refuses a session token in the query, however the name is spelled', async () => {
    const t = session();
    for (const query of [`token=${t}`, `%74oken=${t}`, `token=x&token=${t}`]) {
      const res = await get(`${FILE_A}?${query}`);
      expect(res.statusCode, query).toBe(401);
      expect(res.json().code).toBe('DOWNLOAD_LINK_INVALID');
    }
    // Any other spelling is not a token at all.
    expect((await get(`${FILE_A}?TOKEN=${t}`)).json().code).toBe('AUTH_MISSING_TOKEN');
  });

  test('accepts the session token in the header, as every route does', async () => {
    expect((await get(FILE_A, { token: session() })).json()).toEqual({ by: 'u1' });
  });

  test('with a token in the query, that token decides, whatever the header says', async () => {
    const res = await get(`${FILE_A}?token=${session()}`, { token: session() });
    expect(res.statusCode).toBe(401);
  });
});
