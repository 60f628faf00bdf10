import { requireInternal, type ServiceApp } from '@flatship/kit';
import {
  ChargeBodySchema,
  IdSchema,
  LedgerEntriesReplySchema,
  LedgerResultSchema,
  MoneySummariesBodySchema,
  MoneySummariesReplySchema,
  RefundBodySchema,
  SetBalanceBodySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { chargeBalance } from '../domain/charge-balance';
import { getMoneySummaries } from '../domain/get-money-summaries';
import { LEDGER_LIST_MAX, listLedgerEntries } from '../domain/list-ledger-entries';
import { refundCharge } from '../domain/refund-charge';
import { setBalance } from '../domain/set-balance';
import type { DomainDeps } from './deps';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });
const LedgerQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LEDGER_LIST_MAX })),
});

/** Calls from other services (orders, label-worker, admin, auth), guarded by the shared secret. */
export function registerInternalRoutes(app: ServiceApp, deps: DomainDeps, internalSecret: string): void {
  const onRequest = [requireInternal(internalSecret)];

  app.post(
    '/internal/ledger/charge',
    { onRequest, schema: { body: ChargeBodySchema, response: { 200: LedgerResultSchema } } },
    (request) => chargeBalance(deps, request.body),
  );

  app.post(
    '/internal/ledger/refund',
    { onRequest, schema: { body: RefundBodySchema, response: { 200: LedgerResultSchema } } },
    (request) => refundCharge(deps, request.body),
  );

  app.post(
    '/internal/ledger/set-balance',
    { onRequest, schema: { body: SetBalanceBodySchema, response: { 200: LedgerResultSchema } } },
    (request) => setBalance(deps, request.body),
  );

  app.post(
    '/internal/accounts/summaries',
    { onRequest, schema: { body: MoneySummariesBodySchema, response: { 200: MoneySummariesReplySchema } } },
    async (request) => ({ summaries: await getMoneySummaries(deps, request.body.userIds) }),
  );

  app.get(
    '/internal/ledger/:userId',
    {
      onRequest,
      schema: {
        params: UserIdParamsSchema,
        querystring: LedgerQuerySchema,
        response: { 200: LedgerEntriesReplySchema },
      },
    },
    async (request) => ({ entries: await listLedgerEntries(deps, request.params.userId, request.query.limit) }),
  );
}
