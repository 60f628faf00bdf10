import { HttpResponse, http as mswHttp } from 'msw';
import { describe, expect, it } from 'vitest';
import { setupTestServer } from '../test/msw';
import { ApiError, getJson, postJson } from './http';
import { errorMessage } from './server-message';

const server = setupTestServer();

describe('http client', () => {
  it('sends the stored token in the token header', async () => {
    localStorage.setItem('token', 'abc');
    let seen: string | null = null;
    server.use(
      mswHttp.get('http://localhost/api/auth/verify', ({ request }) => {
        seen = request.headers.get('token');
        return HttpResponse.json({ user: null });
      }),
    );
    await getJson('auth/verify');
    expect(seen).toBe('abc');
  });

  it('turns a { code, message } answer into an ApiError', async () => {
    server.use(
      mswHttp.post('http://localhost/api/auth/login', () =>
        HttpResponse.json({ code: 'AUTH_INVALID_CREDENTIALS', message: 'Invalid email or password' }, { status: 401 }),
      ),
    );
    const error = await postJson('auth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      code: 'AUTH_INVALID_CREDENTIALS',
      message: 'Invalid email or password',
    });
    expect(errorMessage(error, 'fallback')).toBe('Invalid email or password');
  });

  it('does not retry a POST that failed with 503', async () => {
    let calls = 0;
    server.use(
      mswHttp.post('http://localhost/api/auth/login', () => {
        calls += 1;
        return new HttpResponse(null, { status: 503 });
      }),
    );
    const error = await postJson('auth/login', {}).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(error).toMatchObject({ status: 503, isServerMessage: false });
    expect(errorMessage(error, 'fallback')).toBe('fallback');
  });

  it('reports a network failure with status 0', async () => {
    server.use(mswHttp.post('http://localhost/api/auth/login', () => HttpResponse.error()));
    const error = await postJson('auth/login', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });
});
