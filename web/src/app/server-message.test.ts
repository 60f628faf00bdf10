import { HttpResponse, http as mswHttp } from 'msw';
import { describe, expect, it } from 'vitest';
import { api } from '../test/handlers';
import { setupTestServer } from '../test/msw';
import { ApiError, postJson, readErrorBody } from './http';
import { errorMessage, serverMessage } from './server-message';

const server = setupTestServer();

/** The error the http client throws when the server answers `answer` (a POST, so it is not retried). */
async function failureFor(answer: () => Response): Promise<unknown> {
  server.use(mswHttp.post(api('things'), answer));
  const error = await postJson('things', {}).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error;
}

describe("the server's words", () => {
  it('are the message of a { code, message } answer', async () => {
    const error = await failureFor(() =>
      HttpResponse.json({ code: 'AUTH_INVALID_CREDENTIALS', message: 'Invalid email or password' }, { status: 401 }),
    );
    expect(error).toMatchObject({ status: 401, code: 'AUTH_INVALID_CREDENTIALS', isServerMessage: true });
    expect(serverMessage(error)).toBe('Invalid email or password');
    expect(errorMessage(error, 'Login failed')).toBe('Invalid email or password');
  });

  it('are the message of an answer without a code, which then reads as the status', async () => {
    const error = await failureFor(() => HttpResponse.json({ message: 'Row 3: Weight is required' }, { status: 400 }));
    expect(error).toMatchObject({ code: 'HTTP_400' });
    expect(serverMessage(error)).toBe('Row 3: Weight is required');
  });

  it.each([
    ['an empty message', () => HttpResponse.json({ code: 'X', message: '' }, { status: 400 })],
    ['a message that is not text', () => HttpResponse.json({ code: 'X', message: 42 }, { status: 400 })],
    ['JSON without a message', () => HttpResponse.json({ error: 'Bad Gateway' }, { status: 502 })],
    ['a page that is not JSON', () => new HttpResponse('<h1>502 Bad Gateway</h1>', { status: 502 })],
    ['no body at all', () => new HttpResponse(null, { status: 503 })],
    ['no answer (the network failed)', () => HttpResponse.error()],
  ])('are none for %s: the screen says its own text', async (_case, answer) => {
    const error = await failureFor(answer);
    expect(serverMessage(error)).toBeUndefined();
    expect(errorMessage(error, 'Failed to load users')).toBe('Failed to load users');
  });

  it('are none for an error that did not come from the http client', () => {
    for (const error of [new Error('boom'), 'text', undefined, null, new ApiError(0, 'TIMEOUT', 'Too slow', false)]) {
      expect(serverMessage(error)).toBeUndefined();
      expect(errorMessage(error, 'Fallback')).toBe('Fallback');
    }
  });

  it('are left out when they only repeat the text the screen shows with them (`besides`)', () => {
    const error = new ApiError(409, 'X', 'Failed to update referral code', true);
    expect(serverMessage(error, { besides: 'Failed to update referral code' })).toBeUndefined();
    expect(serverMessage(error, { besides: 'Failed to load referral code' })).toBe('Failed to update referral code');
    expect(serverMessage(error)).toBe('Failed to update referral code');
  });

  it('are told only for the statuses a screen names (`statuses`)', () => {
    const refused = new ApiError(400, 'VALIDATION_FAILED', 'startDate must not be after endDate', true);
    const unavailable = new ApiError(503, 'SERVICE_UNAVAILABLE', 'Try again shortly', true);
    expect(serverMessage(refused, { statuses: [400] })).toBe('startDate must not be after endDate');
    expect(serverMessage(unavailable, { statuses: [400] })).toBeUndefined();
    expect(serverMessage(unavailable)).toBe('Try again shortly');
  });
});

describe('readErrorBody', () => {
  it('reads { code, message } from a copy, leaving the response readable', async () => {
    const response = Response.json({ code: 'FILE_NOT_FOUND', message: 'File not found' }, { status: 404 });
    expect(await readErrorBody(response)).toEqual({ code: 'FILE_NOT_FOUND', message: 'File not found' });
    expect(await response.json()).toEqual({ code: 'FILE_NOT_FOUND', message: 'File not found' });
  });

  it('is null for a body that is not JSON or has no text message', async () => {
    expect(await readErrorBody(new Response('<h1>Not found</h1>', { status: 404 }))).toBeNull();
    expect(await readErrorBody(new Response(null, { status: 500 }))).toBeNull();
    expect(await readErrorBody(Response.json({ error: 'Not found' }, { status: 404 }))).toBeNull();
    expect(await readErrorBody(Response.json('Not found', { status: 404 }))).toBeNull();
  });
});
