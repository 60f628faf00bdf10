import type { DefaultServicesRepo, ServiceRecord } from './ports';

export function listDefaultServices(deps: { defaultServices: DefaultServicesRepo }): Promise<ServiceRecord[]> {
  return deps.defaultServices.list();
}
