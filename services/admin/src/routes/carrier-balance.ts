import { type InternalClient, requireAuth, type ServiceApp } from '@flatship/kit';
import {
  CarrierBalanceReplySchema,
  CarrierConnectionReplySchema,
  CarrierRoutesReplySchema,
  CarrierRoutesUpdateSchema,
} from '@flatship/proto';
import { readCarrierRoutes, switchCarrierRoutes } from '../domain/carrier-routes';
import { checkCarrierConnections } from '../domain/check-carrier-connections';
import { type CarrierAccounts, readCarrierBalance } from '../domain/read-carrier-balance';

/** GET /api/auth/api/balance: what is left on the platform's carrier accounts, in dollars. Admins only. */
export function registerCarrierBalanceRoutes(
  app: ServiceApp,
  deps: { carriers: CarrierAccounts; warnBelowCents: number; orders: InternalClient },
): void {
  app.get(
    '/api/auth/api/balance',
    { onRequest: [app.requireAdmin], schema: { response: { 200: CarrierBalanceReplySchema } } },
    (request) => readCarrierBalance({ ...deps, log: request.log }),
  );
  app.get(
    '/api/admin/carriers/routes',
    { onRequest: [app.requireAdmin], schema: { response: { 200: CarrierRoutesReplySchema } } },
    (request) => readCarrierRoutes(deps, { requestId: request.id }),
  );
  app.put(
    '/api/admin/carriers/routes',
    {
      onRequest: [app.requireAdmin],
      schema: { body: CarrierRoutesUpdateSchema, response: { 200: CarrierRoutesReplySchema } },
    },
    (request) =>
      switchCarrierRoutes(
        deps,
        { adminId: requireAuth(request).userId, body: request.body },
        { requestId: request.id },
      ),
  );
  // A POST: it calls every carrier (a token, an account read), which is not a read an operator repeats by accident.
  app.post(
    '/api/admin/carriers/check',
    { onRequest: [app.requireAdmin], schema: { response: { 200: CarrierConnectionReplySchema } } },
    (request) => checkCarrierConnections({ carriers: deps.carriers, log: request.log }),
  );
}
