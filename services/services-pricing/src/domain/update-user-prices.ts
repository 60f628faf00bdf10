import { type EditUserServiceDeps, editUserService } from './edit-user-service';
import type { ServiceRecord } from './ports';
import { parsePriceList } from './price-list';

export function updateUserPrices(
  deps: EditUserServiceDeps,
  userId: string,
  serviceId: string,
  prices: readonly unknown[],
): Promise<ServiceRecord> {
  return editUserService(deps, userId, serviceId, (service, tx) =>
    deps.userServices.setPrices(service.id, parsePriceList(prices, service.maxWeight), tx),
  );
}
