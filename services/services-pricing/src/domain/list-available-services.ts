import { type EffectiveServicesDeps, isBuyable, loadEffectiveServices } from './effective-services';
import type { ServiceRecord } from './ports';

/** The services the user can buy right now, for the order forms and for orders. */
export async function listAvailableServices(deps: EffectiveServicesDeps, userId: string): Promise<ServiceRecord[]> {
  return (await loadEffectiveServices(deps, userId)).filter(isBuyable);
}
