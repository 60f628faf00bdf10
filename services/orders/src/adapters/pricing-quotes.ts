import type { InternalClient } from '@flatship/kit';
import type { InternalQuoteBody, InternalQuoteReply } from '@flatship/proto';
import type { QuotePort } from '../domain/ports';

/** Prices from services-pricing (`POST /internal/quotes`); its PRICING_* errors reach the caller unchanged. */
export function createPricingQuotes(client: InternalClient): QuotePort {
  return {
    async quote(userId, shipments) {
      const body: InternalQuoteBody = {
        userId,
        shipments: shipments.map((s) => ({ service_name: s.serviceName, weight: s.weightLb })),
      };
      const reply = await client.request<InternalQuoteReply>('POST', '/internal/quotes', { body });
      return reply.items;
    },
  };
}
