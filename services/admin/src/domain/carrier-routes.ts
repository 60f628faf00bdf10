import type { ServiceRoute } from '@flatship/carriers';
import { AppError, type InternalClient } from '@flatship/kit';
import type { CarrierRoutesReply, CarrierRoutesUpdate, InternalCarrierRoutes } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { CarrierAccounts } from './read-carrier-balance';

export interface CarrierRoutesDeps {
  /** Admin's own carrier set: the enabled carriers, their names and the services each sells. */
  carriers: CarrierAccounts;
  /** Orders keeps the routes (`/internal/carrier-routes`); its carrier set and every label worker's follow them. */
  orders: InternalClient;
}

/**
 * Every service with the carriers that sell it, in the order they are asked (the route orders keeps), and the enabled
 * carriers that could (`sellers`, in `CARRIERS` order): a service two carriers sell can be switched between them.
 */
export function listCarrierRoutes(accounts: CarrierAccounts, stored: readonly ServiceRoute[]): CarrierRoutesReply {
  const named = (id: string) => ({ id, name: accounts.carriers?.find((c) => c.id === id)?.name ?? id });
  const routes = new Map(stored.map((r) => [r.serviceUid, r.carriers]));
  return {
    services: (accounts.services?.() ?? []).map((s) => {
      const sellers = (accounts.carriers ?? [])
        .filter((c) =>
          accounts
            .adapter?.(c.id)
            ?.services()
            .some((x) => x.uid === s.uid),
        )
        .map((c) => c.id);
      return {
        uid: s.uid,
        name: s.name,
        carriers: (routes.get(s.uid) ?? sellers).map(named),
        sellers: sellers.map(named),
      };
    }),
  };
}

export async function readCarrierRoutes(deps: CarrierRoutesDeps, ctx: { requestId: string }) {
  const { routes } = await deps.orders.request<InternalCarrierRoutes>('GET', '/internal/carrier-routes', ctx);
  return listCarrierRoutes(deps.carriers, routes);
}

/**
 * Switches services between carriers: checked here against the enabled carriers (a message naming what is wrong),
 * then kept by orders, which checks again against its own carriers. Answers every service's route as it now is.
 */
export async function switchCarrierRoutes(
  deps: CarrierRoutesDeps,
  input: { adminId: string; body: CarrierRoutesUpdate },
  ctx: { requestId: string },
): Promise<CarrierRoutesReply> {
  const routes = input.body.services.map((s) => ({ serviceUid: s.uid, carriers: s.carriers }));
  const uids = routes.map((r) => r.serviceUid);
  const twice = uids.find((uid, i) => uids.indexOf(uid) !== i);
  if (twice) throw new AppError('VALIDATION_FAILED', MESSAGES.routeNamedTwice(twice));
  const problem = deps.carriers.routesProblem?.(routes) ?? null;
  if (problem) throw new AppError('VALIDATION_FAILED', MESSAGES.routeRefused(problem));
  const saved = await deps.orders.request<InternalCarrierRoutes>('PUT', '/internal/carrier-routes', {
    ...ctx,
    body: { routes, updatedBy: input.adminId },
  });
  return listCarrierRoutes(deps.carriers, saved.routes);
}
