import { AppError } from '@flatship/kit';
import { orNotFound } from './find-service';
import { MESSAGES } from './messages';
import type { DefaultServicesRepo, ServiceRecord, Transactor } from './ports';
import { SERVICES_LOCK } from './sync-services';

/**
 * Shipments name their service, so two defaults with one name would make an
 * order ambiguous: names are unique, ignoring case and surrounding spaces.
 */
export function renameDefaultService(
  deps: { defaultServices: DefaultServicesRepo; transactor: Transactor },
  id: string,
  name: string,
): Promise<ServiceRecord> {
  const trimmed = name.trim();
  if (trimmed === '') throw new AppError('PRICING_NAME_EMPTY', MESSAGES.nameEmpty);
  return deps.transactor.run(
    async (tx) => {
      const service = orNotFound(await deps.defaultServices.findById(id, tx));
      if (await deps.defaultServices.isNameTaken(trimmed, service.id, tx)) {
        throw new AppError('BAD_REQUEST', MESSAGES.nameTaken(trimmed));
      }
      return orNotFound(await deps.defaultServices.setName(service.id, trimmed, tx));
    },
    { lockKey: SERVICES_LOCK },
  );
}
