import { assertSelfOrAdmin, type ServiceApp } from '@flatship/kit';
import { DepositsQuerySchema, DepositsReplySchema, IdSchema, RecentDepositsReplySchema } from '@flatship/proto';
import { Type } from 'typebox';
import { listDeposits, listRecentDeposits } from '../domain/list-deposits';
import type { DomainDeps } from './deps';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });

export function registerDepositRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.get(
    '/api/payment/recent-deposits/:userId',
    {
      onRequest: [app.requireUser],
      schema: { params: UserIdParamsSchema, response: { 200: RecentDepositsReplySchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return listRecentDeposits(deps, request.params.userId);
    },
  );

  app.get(
    '/api/payment/deposits/:userId',
    {
      onRequest: [app.requireUser],
      schema: { params: UserIdParamsSchema, querystring: DepositsQuerySchema, response: { 200: DepositsReplySchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return listDeposits(deps, request.params.userId, request.query);
    },
  );
}
