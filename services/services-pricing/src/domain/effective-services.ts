import { AppError } from '@flatship/kit';
import { MESSAGES } from './messages';
import type { ServiceRecord, Tx } from './ports';

export interface EffectiveServicesDeps {
  userServices: { listEffective(userId: string, tx?: Tx): Promise<ServiceRecord[]> };
}

/**
 * A user's services (DESIGN §8): their own list once an admin has initialised
 * it (it has any rows), otherwise the defaults, read in one query. Disabled
 * entries stay in the result so a quote can say why a service cannot be bought.
 */
export async function loadEffectiveServices(
  deps: EffectiveServicesDeps,
  userId: string,
  tx?: Tx,
): Promise<ServiceRecord[]> {
  return deps.userServices.listEffective(userId, tx);
}

/** What can be bought: enabled, and still offered by the carrier. */
export const isBuyable = (s: ServiceRecord) => s.enabled && s.status === 'active';

const key = (s: string) => s.trim().toLowerCase();

/**
 * Finds the service a shipment names, by name (case and surrounding spaces
 * ignored) or by uid, and refuses one that cannot be bought.
 */
export function createServiceMatcher(services: readonly ServiceRecord[]): (serviceName: string) => ServiceRecord {
  const byKey = new Map<string, ServiceRecord>();
  for (const s of services) byKey.set(key(s.name), s);
  // A uid is exact by construction, so it wins over a name that happens to look like one.
  for (const s of services) byKey.set(key(s.uid), s);
  return (serviceName) => {
    const wanted = serviceName.trim();
    if (wanted === '') throw new AppError('PRICING_SERVICE_UNKNOWN', MESSAGES.serviceMissing);
    const service = byKey.get(key(wanted));
    // The carrier no longer offers an inactive service: to the buyer it does not exist.
    if (service?.status !== 'active') {
      throw new AppError('PRICING_SERVICE_UNKNOWN', MESSAGES.serviceUnknown(wanted));
    }
    if (!service.enabled) throw new AppError('PRICING_SERVICE_DISABLED', MESSAGES.serviceDisabled(service.name));
    return service;
  };
}
