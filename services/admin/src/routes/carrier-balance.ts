import type { ServiceApp } from '@flatship/kit';
import { CarrierBalanceReplySchema, CarrierConnectionReplySchema, CarrierRoutesReplySchema } from '@flatship/proto';
import { checkCarrierConnections, listCarrierRoutes } from '../domain/check-carrier-connections';
import { type CarrierAccounts, readCarrierBalance } from '../domain/read-carrier-balance';

/** GET /api/auth/api/balance: what is left on the platform's carrier accounts, in dollars. Admins only. */
export function registerCarrierBalanceRoutes(
  app: ServiceApp,
  deps: { carriers: CarrierAccounts; warnBelowCents: number },
): void {
  app.get(
    '/api/auth/api/balance',
    { onRequest: [app.requireAdmin], schema: { response: { 200: CarrierBalanceReplySchema } } },
    (request) => readCarrierBalance({ ...deps, log: request.log }),
  );
  app.get(
    '/api/admin/carriers/routes',
    { onRequest: [app.requireAdmin], schema: { response: { 200: CarrierRoutesReplySchema } } },
    async () => listCarrierRoutes(deps.carriers),
  );
  // A POST: it calls every carrier (a token, an account read), which is not a read an operator repeats by accident.
  app.post(
    '/api/admin/carriers/check',
    { onRequest: [app.requireAdmin], schema: { response: { 200: CarrierConnectionReplySchema } } },
    (request) => checkCarrierConnections({ carriers: deps.carriers, log: request.log }),
  );
}
