import { orNotFound } from './find-service';
import type { DefaultServicesRepo, ServiceRecord, Transactor } from './ports';
import { parsePriceList } from './price-list';
import { SERVICES_LOCK } from './sync-services';

/** Under the sync lock, so the list is checked against the maximum weight it is stored with. */
export function updateDefaultPrices(
  deps: { defaultServices: DefaultServicesRepo; transactor: Transactor },
  id: string,
  prices: readonly unknown[],
): Promise<ServiceRecord> {
  return deps.transactor.run(
    async (tx) => {
      const service = orNotFound(await deps.defaultServices.findById(id, tx));
      const bands = parsePriceList(prices, service.maxWeight);
      return orNotFound(await deps.defaultServices.setPrices(service.id, bands, tx));
    },
    { lockKey: SERVICES_LOCK },
  );
}
