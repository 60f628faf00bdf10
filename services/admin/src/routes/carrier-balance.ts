import type { ServiceApp } from '@flatship/kit';
import { CarrierBalanceReplySchema, CarrierConnectionReplySchema, CarrierRoutesReplySchema } from '@flatship/proto';
import { checkCarrierConnections } from '../domain/check-carrier-connections';
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
    async () => {
      const names = new Map((deps.carriers.carriers ?? []).map((c) => [c.id, c.name]));
      const routes = new Map((deps.carriers.routes?.() ?? []).map((r) => [r.serviceUid, r.carriers]));
      return {
        services: (deps.carriers.services?.() ?? []).map((s) => ({
          uid: s.uid,
          name: s.name,
          carriers: (routes.get(s.uid) ?? []).map((id) => ({ id, name: names.get(id) ?? id })),
        })),
      };
    },
  );
  // A POST: it calls every carrier (a token, an account read), which is not a read an operator repeats by accident.
  app.post(
    '/api/admin/carriers/check',
    { onRequest: [app.requireAdmin], schema: { response: { 200: CarrierConnectionReplySchema } } },
    (request) =>
      checkCarrierConnections({
        carriers: () =>
          (deps.carriers.carriers ?? []).map((c) => {
            const adapter = deps.carriers.adapter?.(c.id);
            return {
              id: c.id,
              name: c.name,
              ...(adapter?.checkConnection ? { checkConnection: () => adapter.checkConnection!() } : {}),
            };
          }),
        log: request.log,
      }),
  );
}
