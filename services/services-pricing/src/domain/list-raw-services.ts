import type { RawServiceRecord, RawServicesRepo } from './ports';

export function listRawServices(deps: { rawServices: RawServicesRepo }): Promise<RawServiceRecord[]> {
  return deps.rawServices.list();
}
