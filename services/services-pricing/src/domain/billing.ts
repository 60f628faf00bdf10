import { AppError } from '@flatship/kit';
import { MESSAGES } from './messages';
import { priceForWeight } from './price-list';
import type { ServiceRecord } from './types';

/**
 * The weight a shipment is billed at (DESIGN §8): rounded up to a whole
 * pound; 0, blank, null, negative or not a number count as 1 lb, the way the
 * order form treats an empty weight.
 */
export function billedWeight(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (Number.isNaN(n) || n <= 0) return 1;
  return Math.ceil(n);
}

/** The price of one shipment of `raw` pounds with `service`; refuses weights over the service's maximum. */
export function priceShipment(service: ServiceRecord, raw: unknown): { billedWeight: number; priceCents: number } {
  const billed = billedWeight(raw);
  const priceCents = billed > service.maxWeight ? null : priceForWeight(service.prices, billed);
  if (priceCents === null) {
    const given = typeof raw === 'number' ? raw : Number(raw);
    throw new AppError('PRICING_WEIGHT_OVER_MAX', MESSAGES.weightOverMax(given, service.maxWeight, service.name));
  }
  return { billedWeight: billed, priceCents };
}
