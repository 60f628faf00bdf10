import type { TokenState } from '@flatship/proto';
import { describe, expect, it } from 'vitest';
import { authContextOf, createCachedTokenState } from '../src/auth';
import { AppError } from '../src/errors';

/** What auth answers now, and every read it was asked for. */
function fakeAuth() {
  const states = new Map<string, TokenState>();
  const reads: string[] = [];
  return {
    states,
    reads,
    fetch: async (id: string) => {
      reads.push(id);
      return states.get(id) ?? null;
    },
  };
}

const user = (id: string, tokenVersion: number, more: Partial<TokenState> = {}): TokenState => ({
  id,
  role: 'user',
  activation: 'allow',
  tokenVersion,
  impersonationVersion: 0,
  ...more,
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe('the token-state cache', () => {
  it('reads afresh when a token is newer than the cached state (its user.changed is still on its way)', async () => {
    const auth = fakeAuth();
    const cache = createCachedTokenState(auth.fetch, 60_000);
    // Registered: the event for version 0 arrives; then made admin (version 1) and signed in at version 1.
    cache.apply(user('a', 0));
    auth.states.set('a', user('a', 1, { role: 'admin' }));

    const who = await authContextOf(cache, { sub: 'a', ver: 1 });

    expect(who).toEqual({ userId: 'a', role: 'admin', tokenVersion: 1 });
    expect(auth.reads).toEqual(['a']);
    // The fresh read is what the cache now holds: the next call reads nothing.
    await authContextOf(cache, { sub: 'a', ver: 1 });
    expect(auth.reads).toEqual(['a']);
  });

  it('still refuses a token older than the cached state, without reading', async () => {
    const auth = fakeAuth();
    const cache = createCachedTokenState(auth.fetch, 60_000);
    cache.apply(user('a', 2));

    expect(await refusal(authContextOf(cache, { sub: 'a', ver: 1 }))).toBe('AUTH_TOKEN_REVOKED');
    expect(auth.reads).toEqual([]);
  });

  it('refuses a token newer than auth knows (the fresh read decides)', async () => {
    const auth = fakeAuth();
    const cache = createCachedTokenState(auth.fetch, 60_000);
    cache.apply(user('a', 0));
    auth.states.set('a', user('a', 0));

    expect(await refusal(authContextOf(cache, { sub: 'a', ver: 5 }))).toBe('AUTH_TOKEN_REVOKED');
    expect(auth.reads).toEqual(['a']);
  });

  it("reads the admin afresh when a login-as token's impersonation version is ahead of the cache", async () => {
    const auth = fakeAuth();
    const cache = createCachedTokenState(auth.fetch, 60_000);
    cache.apply(user('helped', 0));
    cache.apply(user('admin', 1, { role: 'admin', impersonationVersion: 3 }));
    auth.states.set('admin', user('admin', 1, { role: 'admin', impersonationVersion: 4 }));

    const who = await authContextOf(cache, { sub: 'helped', ver: 0, imp: 'admin', iv: 4 });

    expect(who).toMatchObject({ userId: 'helped', impersonatorId: 'admin', impersonationVersion: 4 });
    expect(auth.reads).toEqual(['admin']);
    // A visit ended (version 4 → 5) is still refused at once.
    cache.apply(user('admin', 1, { role: 'admin', impersonationVersion: 5 }));
    expect(await refusal(authContextOf(cache, { sub: 'helped', ver: 0, imp: 'admin', iv: 4 }))).toBe(
      'AUTH_TOKEN_REVOKED',
    );
  });

  it('keeps the newer state when an older event arrives late', async () => {
    const auth = fakeAuth();
    const cache = createCachedTokenState(auth.fetch, 60_000);
    auth.states.set('a', user('a', 1, { role: 'admin' }));
    expect(await cache.get('a')).toMatchObject({ tokenVersion: 1, role: 'admin' });

    cache.apply(user('a', 0));

    expect(await cache.get('a')).toMatchObject({ tokenVersion: 1, role: 'admin' });
    expect(auth.reads).toEqual(['a']);
  });

  it('keeps the newer event when a read begun before the change answers after it', async () => {
    let answer: (s: TokenState) => void = () => {};
    const cache = createCachedTokenState(() => new Promise<TokenState>((r) => (answer = r)), 60_000);
    const reading = cache.get('a');
    cache.apply(user('a', 1, { activation: 'block' }));
    answer(user('a', 0));

    await reading;
    expect(await cache.get('a')).toMatchObject({ tokenVersion: 1, activation: 'block' });
  });

  it('takes a newer event over a cached state, and a deletion for good', async () => {
    const auth = fakeAuth();
    const cache = createCachedTokenState(auth.fetch, 60_000);
    cache.apply(user('a', 0));
    cache.apply(user('a', 1, { role: 'admin' }));
    expect(await cache.get('a')).toMatchObject({ role: 'admin' });

    cache.apply({ ...user('a', 2), deleted: true });
    cache.apply(user('a', 1, { role: 'admin' }));

    expect(await cache.get('a')).toBeNull();
    expect(auth.reads).toEqual([]);
  });

  it('does not bring back a user auth no longer knows when a late event arrives', async () => {
    const auth = fakeAuth();
    const cache = createCachedTokenState(auth.fetch, 60_000);
    expect(await cache.get('gone')).toBeNull();

    cache.apply(user('gone', 3));

    expect(await cache.get('gone')).toBeNull();
    expect(await refusal(authContextOf(cache, { sub: 'gone', ver: 3 }))).toBe('AUTH_TOKEN_REVOKED');
  });

  it('reads again once an entry is older than its lifetime', async () => {
    const auth = fakeAuth();
    const cache = createCachedTokenState(auth.fetch, 0);
    auth.states.set('a', user('a', 0));
    await cache.get('a');
    auth.states.set('a', user('a', 1));

    expect(await cache.get('a')).toMatchObject({ tokenVersion: 1 });
    expect(auth.reads).toEqual(['a', 'a']);
  });
});
