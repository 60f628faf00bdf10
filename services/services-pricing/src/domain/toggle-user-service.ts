import { type EditUserServiceDeps, editUserService } from './edit-user-service';
import type { ServiceRecord } from './ports';

export function toggleUserService(
  deps: EditUserServiceDeps,
  userId: string,
  serviceId: string,
  enabled: boolean,
): Promise<ServiceRecord> {
  return editUserService(deps, userId, serviceId, (service, tx) =>
    deps.userServices.setEnabled(service.id, enabled, tx),
  );
}
