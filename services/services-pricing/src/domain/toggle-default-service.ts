import { orNotFound } from './find-service';
import type { DefaultServicesRepo, ServiceRecord } from './ports';

export async function toggleDefaultService(
  deps: { defaultServices: DefaultServicesRepo },
  id: string,
  enabled: boolean,
): Promise<ServiceRecord> {
  return orNotFound(await deps.defaultServices.setEnabled(id, enabled));
}
