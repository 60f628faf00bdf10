import { AUTH_MESSAGES, type ServiceApp } from '@flatship/kit';
import type { TokenState, UserChangedEvent } from '@flatship/proto';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  createManualFeed,
  createUserDirectory,
  gatewayDeps,
  otherKeys,
  type StandInService,
  signToken,
  startGateway,
  startStandInService,
} from './helpers';

let auth: StandInService;
let gateway: { app: ServiceApp; url: string };
// A long cache, so only the user.changed feed can explain an immediate revocation.
const users = createUserDirectory(60_000);
const changes = createManualFeed();
const open: Socket[] = [];

beforeAll(async () => {
  auth = await startStandInService('auth');
  gateway = await startGateway(
    gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState, userChanges: changes.feed }),
  );
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => {
  await gateway.app.close();
  await auth.close();
});

function client(auth?: { token?: string }): Socket {
  const socket = connect(gateway.url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    ...(auth ? { auth } : {}),
  });
  open.push(socket);
  return socket;
}

function outcome(socket: Socket): Promise<{ connected: true } | { connected: false; message: string; data: unknown }> {
  return new Promise((resolve) => {
    socket.on('connect', () => resolve({ connected: true }));
    socket.on('connect_error', (err: Error & { data?: unknown }) =>
      resolve({ connected: false, message: err.message, data: err.data }),
    );
  });
}

describe('socket.io handshake', () => {
  test('a client with a good token connects', async () => {
    const token = users.add({ id: 's-good' });
    expect(await outcome(client({ token }))).toEqual({ connected: true });
  });

  test('long polling works too (no websocket upgrade)', async () => {
    const token = users.add({ id: 's-poll' });
    const socket = connect(gateway.url, { transports: ['polling'], reconnection: false, auth: { token } });
    open.push(socket);
    expect(await outcome(socket)).toEqual({ connected: true });
  });

  test('no token is refused with the log-in message', async () => {
    expect(await outcome(client())).toEqual({
      connected: false,
      message: AUTH_MESSAGES.missing,
      data: { code: 'AUTH_MISSING_TOKEN' },
    });
  });

  test('a token in the handshake URL is not read: it would sit in every proxy log', async () => {
    const token = users.add({ id: 's-query' });
    for (const transports of [['websocket'], ['polling']] as const) {
      const socket = connect(gateway.url, { transports: [...transports], reconnection: false, query: { token } });
      open.push(socket);
      expect(await outcome(socket)).toMatchObject({ connected: false, data: { code: 'AUTH_MISSING_TOKEN' } });
    }
  });

  test('a token signed with another key is refused', async () => {
    const forged = signToken({ sub: 's-good', role: 'admin', ver: 1 }, otherKeys.privateKey);
    expect(await outcome(client({ token: forged }))).toEqual({
      connected: false,
      message: AUTH_MESSAGES.invalid,
      data: { code: 'AUTH_INVALID_TOKEN' },
    });
  });

  test('an expired token is refused', async () => {
    users.add({ id: 's-exp' });
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = signToken({ sub: 's-exp', role: 'user', ver: 1, iat: past - 60, exp: past });
    const result = await outcome(client({ token: expired }));
    expect(result).toMatchObject({ connected: false, message: AUTH_MESSAGES.expired });
  });

  test("a blocked user's token is refused with the blocked message", async () => {
    const token = users.add({ id: 's-blocked', activation: 'block' });
    expect(await outcome(client({ token }))).toEqual({
      connected: false,
      message: AUTH_MESSAGES.blocked,
      data: { code: 'AUTH_ACCOUNT_BLOCKED' },
    });
  });

  test('a token of an older version is refused', async () => {
    users.add({ id: 's-old', tokenVersion: 3 });
    const old = signToken({ sub: 's-old', role: 'user', ver: 2 });
    expect(await outcome(client({ token: old }))).toMatchObject({ connected: false, message: AUTH_MESSAGES.revoked });
  });
});

describe('revocation through user.changed', () => {
  test('blocking a user ends their live sockets and refuses their next HTTP call at once', async () => {
    expect(changes.subscribers).toBe(1);
    const token = users.add({ id: 's-live' });
    const socket = client({ token });
    expect(await outcome(socket)).toEqual({ connected: true });
    const other = client({ token: users.add({ id: 's-bystander' }) });
    expect(await outcome(other)).toEqual({ connected: true });
    // Warm the cache with the allowed state.
    const before = await fetch(`${gateway.url}/api/auth/verify`, { headers: { token } });
    expect(before.status).toBe(200);

    const disconnected = new Promise<string>((resolve) => socket.on('disconnect', (reason) => resolve(reason)));
    // auth would answer the new state too, but the cache would not ask for a minute.
    users.states.set('s-live', { id: 's-live', role: 'user', activation: 'block', tokenVersion: 2 });
    await changes.publish({ id: 's-live', role: 'user', activation: 'block', tokenVersion: 2 });

    expect(await disconnected).toBe('io server disconnect');
    expect(other.connected).toBe(true);
    const after = await fetch(`${gateway.url}/api/auth/verify`, { headers: { token } });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ code: 'AUTH_TOKEN_REVOKED', message: AUTH_MESSAGES.revoked });
  });

  test('a role change (new token version) ends old sessions; a token of the new version still connects', async () => {
    const oldToken = users.add({ id: 's-role', tokenVersion: 1 });
    const socket = client({ token: oldToken });
    expect(await outcome(socket)).toEqual({ connected: true });
    const disconnected = new Promise<void>((resolve) => socket.on('disconnect', () => resolve()));
    await changes.publish({ id: 's-role', role: 'friend', activation: 'allow', tokenVersion: 2 });
    await disconnected;
    const newToken = signToken({ sub: 's-role', role: 'friend', ver: 2 });
    expect(await outcome(client({ token: newToken }))).toEqual({ connected: true });
  });
});

describe('Login As sockets end with their admin', () => {
  const admin = (id: string): TokenState => ({
    id,
    role: 'admin',
    activation: 'allow',
    tokenVersion: 1,
    impersonationVersion: 1,
  });
  /** A live socket of a Login As session of `adminId`, and a promise of its disconnection. */
  async function visit(adminId: string, userId: string) {
    users.states.set(adminId, admin(adminId));
    users.add({ id: userId });
    const token = signToken({ sub: userId, role: 'user', ver: 1, imp: adminId, iv: 1 });
    const socket = client({ token });
    expect(await outcome(socket)).toEqual({ connected: true });
    const disconnected = new Promise<string>((resolve) => socket.on('disconnect', (reason) => resolve(reason)));
    return { token, socket, disconnected };
  }

  test.each([
    [
      'demoted',
      (a: TokenState): UserChangedEvent => ({ ...a, role: 'user', tokenVersion: 2, impersonationVersion: 2 }),
    ],
    ['blocked', (a: TokenState): UserChangedEvent => ({ ...a, activation: 'block', tokenVersion: 2 })],
    ['deleted', (a: TokenState): UserChangedEvent => ({ ...a, deleted: true, tokenVersion: 2 })],
    ['back to admin', (a: TokenState): UserChangedEvent => ({ ...a, impersonationVersion: 2 })],
  ])('the admin %s: the socket is disconnected and a new handshake refused', async (change, changed) => {
    const adminId = `s-admin-${change}`;
    const { token, socket, disconnected } = await visit(adminId, `s-visited-${change}`);
    // The visited user's own socket, and another admin's visit, are not this admin's.
    const own = client({ token: users.add({ id: `s-visited-${change}` }) });
    expect(await outcome(own)).toEqual({ connected: true });
    const other = await visit(`s-other-admin-${change}`, `s-visited-${change}`);

    const event = changed(admin(adminId));
    // auth would answer the new state too, but the cache would not ask for a minute.
    if (event.deleted) users.states.delete(adminId);
    else users.states.set(adminId, event);
    await changes.publish(event);

    expect(await disconnected).toBe('io server disconnect');
    expect(own.connected).toBe(true);
    expect(other.socket.connected).toBe(true);
    expect(socket.connected).toBe(false);
    expect(await outcome(client({ token }))).toEqual({
      connected: false,
      message: AUTH_MESSAGES.revoked,
      data: { code: 'AUTH_TOKEN_REVOKED' },
    });
  });
});
