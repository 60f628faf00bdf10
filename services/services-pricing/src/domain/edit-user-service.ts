import { orNotFound } from './find-service';
import type { ServiceRecord, Transactor, Tx, UserServicesRepo } from './ports';
import { userServicesLock } from './user-services-lock';

export interface EditUserServiceDeps {
  userServices: UserServicesRepo;
  transactor: Transactor;
}

/**
 * Runs `change` on one of the user's services, found by id or uid. A user
 * still on the defaults gets their own copy first: editing one service must
 * not silently take every other default away from them.
 */
export function editUserService(
  deps: EditUserServiceDeps,
  userId: string,
  serviceId: string,
  change: (service: ServiceRecord, tx: Tx) => Promise<ServiceRecord | null>,
): Promise<ServiceRecord> {
  return deps.transactor.run(
    async (tx) => {
      if ((await deps.userServices.listByUser(userId, tx)).length === 0) {
        await deps.userServices.copyDefaults(userId, tx);
      }
      const service = orNotFound(await deps.userServices.findForUser(userId, serviceId, tx));
      return orNotFound(await change(service, tx));
    },
    { lockKey: userServicesLock(userId) },
  );
}
