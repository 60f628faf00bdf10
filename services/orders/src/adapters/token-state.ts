import { AppError, type InternalClient, isAppError, statusOf } from '@flatship/kit';
import type { TokenState } from '@flatship/proto';

interface WarnLogger {
  warn(obj: object, msg?: string): void;
}

/**
 * Reads a user's token state from auth (`GET /internal/users/:id/token-state`).
 * 404 means the user no longer exists, so their tokens are refused; any other
 * failure is ours, not the caller's, and answers 503.
 */
export function createTokenStateFetcher(client: InternalClient, log: WarnLogger, timeoutMs = 3000) {
  return async (userId: string): Promise<TokenState | null> => {
    try {
      return await client.request<TokenState>('GET', `/internal/users/${encodeURIComponent(userId)}/token-state`, {
        timeoutMs,
      });
    } catch (e) {
      if (isAppError(e) && statusOf(e.code) === 404) return null;
      log.warn({ err: e, userId }, 'could not read token state from auth');
      throw new AppError('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable. Please try again.');
    }
  };
}
