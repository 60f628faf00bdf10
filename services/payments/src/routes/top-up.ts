import { AppError, assertSelfOrAdmin, type ServiceApp } from '@flatship/kit';
import { ErrorBodySchema, IdSchema, TopUpReplySchema } from '@flatship/proto';
import { Type } from 'typebox';
import { createTopUp } from '../domain/create-top-up';
import { MESSAGES } from '../domain/messages';
import type { DomainDeps } from './deps';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });

/** Deposits switched off by configuration: the service itself is fine, so 503 rather than an upstream 502. */
export const DEPOSITS_OFF_BODY = { code: 'PAYMENTS_PROVIDER_UNAVAILABLE', message: MESSAGES.depositsOff } as const;

export function registerTopUpRoutes(app: ServiceApp, deps: DomainDeps): void {
  // The gateway lets visitors reach this one; a static segment wins over `:userId`.
  app.get('/api/payment/top-up/guest', { schema: { response: { 401: ErrorBodySchema } } }, async () => {
    throw new AppError('AUTH_MISSING_TOKEN', MESSAGES.guestTopUp);
  });

  app.get(
    '/api/payment/top-up/:userId',
    {
      onRequest: [app.requireUser],
      schema: { params: UserIdParamsSchema, response: { 200: TopUpReplySchema, 503: ErrorBodySchema } },
    },
    async (request, reply) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      if (!deps.btcpay) return reply.status(503).send(DEPOSITS_OFF_BODY);
      return createTopUp(
        { provider: deps.btcpay.provider, deposits: deps.deposits, logger: request.log },
        request.params.userId,
      );
    },
  );
}
