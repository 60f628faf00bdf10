import { AppError } from '@flatship/kit';
import { NUMBER_RULES, readDecimal } from '@flatship/proto';
import { MESSAGES } from './messages';
import { priceForWeight } from './price-list';
import type { ServiceRecord } from './types';

/**
 * The weight as given, in pounds, when it is a weight at all: plain decimal notation (proto's
 * readDecimal, so '0x10' is not 16 and '1e3' not 1000), above 0, with no more decimals than a
 * parcel weight may have. Null otherwise. There is no ceiling here: the service's is checked below.
 */
function givenWeight(raw: unknown): number | null {
  const read = readDecimal(raw);
  if (typeof read !== 'object') return null;
  const rule = NUMBER_RULES.parcelWeightLb;
  return read.value > rule.min && read.decimals <= rule.decimals ? read.value : null;
}

/**
 * The weight a shipment is billed at (DESIGN §8): rounded up to a whole
 * pound; 0, blank, null, negative or not a weight count as 1 lb, the way the
 * order form treats an empty weight (spec doc 2 §9: the price call uses 1 when the weight is invalid).
 */
export function billedWeight(raw: unknown): number {
  const weight = givenWeight(raw);
  return weight === null ? 1 : Math.ceil(weight);
}

/** The price of one shipment of `raw` pounds with `service`; refuses weights over the service's maximum. */
export function priceShipment(service: ServiceRecord, raw: unknown): { billedWeight: number; priceCents: number } {
  const billed = billedWeight(raw);
  const priceCents = billed > service.maxWeight ? null : priceForWeight(service.prices, billed);
  if (priceCents === null) {
    throw new AppError(
      'PRICING_WEIGHT_OVER_MAX',
      MESSAGES.weightOverMax(givenWeight(raw) ?? billed, service.maxWeight, service.name),
    );
  }
  return { billedWeight: billed, priceCents };
}
