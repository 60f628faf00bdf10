import type { ServiceApp } from '@flatship/kit';
import { CarrierBalanceReplySchema } from '@flatship/proto';
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
}
