import type { CarrierSet } from '@flatship/carriers';
import { AppError, requireInternal, type ServiceApp } from '@flatship/kit';
import { InternalCarrierRoutesSchema, InternalCarrierRoutesUpdateSchema } from '@flatship/proto';
import type { CarrierRouteStore } from '../db/carrier-routes';

export interface CarrierRoutesDeps {
  /** Orders' own carrier set: it checks a route against the enabled carriers and reads the store. */
  carriers: Pick<CarrierSet, 'routes' | 'routesProblem' | 'reloadRoutes'>;
  store: CarrierRouteStore;
}

/**
 * GET and PUT /internal/carrier-routes: which carriers sell each service (admin's carrier switch, shared secret).
 * A change is checked against the enabled carriers, kept in the orders database and read back at once here; the
 * label workers read it at their next purchase after their refresh period.
 */
export function registerCarrierRoutes(app: ServiceApp, deps: CarrierRoutesDeps, internalSecret: string): void {
  const current = async () => {
    await deps.carriers.reloadRoutes();
    return { routes: deps.carriers.routes() };
  };
  app.get(
    '/internal/carrier-routes',
    { onRequest: [requireInternal(internalSecret)], schema: { response: { 200: InternalCarrierRoutesSchema } } },
    current,
  );
  app.put(
    '/internal/carrier-routes',
    {
      onRequest: [requireInternal(internalSecret)],
      schema: { body: InternalCarrierRoutesUpdateSchema, response: { 200: InternalCarrierRoutesSchema } },
    },
    async (request) => {
      const { routes, updatedBy } = request.body;
      const problem = deps.carriers.routesProblem(routes);
      if (problem) throw new AppError('VALIDATION_FAILED', `The route cannot be used: ${problem}.`);
      await deps.store.save(routes, updatedBy);
      request.log.info({ routes, updatedBy }, 'carrier routes changed');
      return current();
    },
  );
}
