import type { ServiceRecord, Transactor, UserServicesRepo } from './ports';
import { userServicesLock } from './user-services-lock';

/**
 * Gives the user a copy of every default service, enabled and disabled, with
 * its name and prices. Services the user already has are left as they are,
 * so calling it again changes nothing (and adds only defaults created since).
 */
export function initializeUserServices(
  deps: { userServices: UserServicesRepo; transactor: Transactor },
  userId: string,
): Promise<ServiceRecord[]> {
  return deps.transactor.run(
    async (tx) => {
      await deps.userServices.copyDefaults(userId, tx);
      return deps.userServices.listByUser(userId, tx);
    },
    { lockKey: userServicesLock(userId) },
  );
}
