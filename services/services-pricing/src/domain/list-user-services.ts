import type { ServiceRecord, UserServicesRepo } from './ports';

/** The user's own list; empty until an admin initialises it (the defaults apply meanwhile). */
export function listUserServices(deps: { userServices: UserServicesRepo }, userId: string): Promise<ServiceRecord[]> {
  return deps.userServices.listByUser(userId);
}
