import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from './db';
import { AppError } from './errors';

/** What a caller sees while the database is away: the same words the gateway uses for a service that is down. */
export const DATABASE_UNAVAILABLE = 'This part of Flatship is not available right now. Please try again later.';

/**
 * Answers requests that fail because the database is away with 503
 * `SERVICE_UNAVAILABLE` instead of a 500, so callers and the gateway see a
 * temporary condition worth retrying. Call it right after creating the app,
 * before any route is added: it applies to the routes added afterwards.
 *
 * Each route gets an error handler that turns such an error into an
 * AppError and rethrows it; Fastify then hands it to the app's own error
 * handler, which formats every error response.
 */
export function answerDatabaseOutages(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const own = route.errorHandler;
    route.errorHandler = function (
      this: FastifyInstance,
      error: FastifyError,
      request: FastifyRequest,
      reply: FastifyReply,
    ) {
      // The app's handler logs the AppError, its cause included.
      const e = isDatabaseUnavailable(error)
        ? (Object.assign(new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE), { cause: error }) as FastifyError)
        : error;
      if (own) return own.call(this, e, request, reply);
      throw e;
    };
  });
}
