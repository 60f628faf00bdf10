import { priceShipment } from './billing';
import { createServiceMatcher, type EffectiveServicesDeps, loadEffectiveServices } from './effective-services';

export interface ShipmentToQuote {
  serviceName: string;
  /** Pounds as the client sent it: a number, a numeric string, blank or null. */
  weight: unknown;
}

export interface QuotedShipment {
  serviceUid: string;
  serviceName: string;
  billedWeight: number;
  priceCents: number;
}

/**
 * Prices shipments with the user's effective services. All arithmetic is in
 * integer cents, so 10,000 labels add up exactly. The first shipment that
 * cannot be bought refuses the whole quote with its reason.
 */
export async function quoteShipments(
  deps: EffectiveServicesDeps,
  userId: string,
  shipments: readonly ShipmentToQuote[],
): Promise<{ items: QuotedShipment[]; totalCents: number }> {
  const match = createServiceMatcher(await loadEffectiveServices(deps, userId));
  let totalCents = 0;
  const items = shipments.map((shipment) => {
    const service = match(shipment.serviceName);
    const { billedWeight, priceCents } = priceShipment(service, shipment.weight);
    totalCents += priceCents;
    return { serviceUid: service.uid, serviceName: service.name, billedWeight, priceCents };
  });
  return { items, totalCents };
}
