import type { ServiceApp } from '@flatship/kit';
import { type CarrierBalanceReply, CarrierBalanceReplySchema, centsToDollars } from '@flatship/proto';

/** The enabled carriers' account balances, in cents, as the carrier registry reports them. */
export interface CarrierAccounts {
  balances(): Promise<{ id: string; name: string; balanceCents: number }[]>;
}

/** GET /api/auth/api/balance: what is left on the platform's carrier accounts, in dollars. */
export function registerCarrierBalanceRoutes(app: ServiceApp, deps: { carriers: CarrierAccounts }): void {
  app.get(
    '/api/auth/api/balance',
    { onRequest: [app.requireAdmin], schema: { response: { 200: CarrierBalanceReplySchema } } },
    async (): Promise<CarrierBalanceReply> => {
      const accounts = await deps.carriers.balances();
      const totalCents = accounts.reduce((sum, a) => sum + a.balanceCents, 0);
      return {
        balance: centsToDollars(totalCents),
        carriers: accounts.map((a) => ({ id: a.id, name: a.name, balance: centsToDollars(a.balanceCents) })),
      };
    },
  );
}
