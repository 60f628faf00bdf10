import type { Carrier } from '@flatship/carriers';
import type { RawServiceSource } from '../domain/ports';

/** The services a carrier offers, as the raw-service sync reads them. */
export function createCarrierServiceSource(carrier: Pick<Carrier, 'services'>): RawServiceSource {
  return {
    list: () =>
      carrier.services().map((s) => ({
        uid: s.uid,
        name: s.name,
        category: s.category,
        carrier: s.carrier,
        maxWeight: s.maxWeight,
      })),
  };
}
