import { assertSelfOrAdmin, type ServiceApp } from '@flatship/kit';
import { BODY_LIMITS, centsToDollars, QuoteBodySchema, QuoteReplySchema } from '@flatship/proto';
import { quoteShipments } from '../domain/quote-shipments';
import type { DomainDeps } from './deps';

/** The price line of the order forms (spec doc 1 §7). Only the service and weight are read. */
export function registerQuoteRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.post(
    '/api/orders/price/v2/bulk',
    {
      onRequest: [app.requireUser],
      // Room for a 10,000-row quote even when the client sends whole shipments; the gateway allows the same.
      bodyLimit: BODY_LIMITS.pricing,
      schema: { body: QuoteBodySchema, response: { 200: QuoteReplySchema } },
    },
    async (request) => {
      const { userId, shipments } = request.body;
      assertSelfOrAdmin(request.auth, userId);
      const quote = await quoteShipments(
        deps,
        userId,
        shipments.map((s) => ({ serviceName: s.service_name, weight: s.package?.package_weight })),
      );
      // Summed in cents, converted once: no float drift however many labels.
      return { totalPrice: centsToDollars(quote.totalCents) };
    },
  );
}
