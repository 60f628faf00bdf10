import { requireInternal, type ServiceApp } from '@flatship/kit';
import {
  BODY_LIMITS,
  EffectiveServicesReplySchema,
  IdSchema,
  InternalQuoteBodySchema,
  InternalQuoteReplySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { listAvailableServices } from '../domain/list-available-services';
import { quoteShipments } from '../domain/quote-shipments';
import type { DomainDeps } from './deps';
import { toConfiguredService } from './wire';

/** Calls from other services (orders, label-worker), guarded by the shared secret; never routed by the gateway. */
export function registerInternalRoutes(app: ServiceApp, deps: DomainDeps, internalSecret: string): void {
  const onRequest = [requireInternal(internalSecret)];

  // Orders asks here before charging, so the amount charged is the one these rules compute.
  app.post(
    '/internal/quotes',
    {
      onRequest,
      bodyLimit: BODY_LIMITS.pricing,
      schema: { body: InternalQuoteBodySchema, response: { 200: InternalQuoteReplySchema } },
    },
    (request) =>
      quoteShipments(
        deps,
        request.body.userId,
        request.body.shipments.map((s) => ({ serviceName: s.service_name, weight: s.weight })),
      ),
  );

  app.get(
    '/internal/services/:userId/effective',
    {
      onRequest,
      schema: { params: Type.Object({ userId: IdSchema }), response: { 200: EffectiveServicesReplySchema } },
    },
    async (request) => ({
      services: (await listAvailableServices(deps, request.params.userId)).map(toConfiguredService),
    }),
  );
}
