import { AppError } from '@flatship/kit';
import { MESSAGES } from './messages';
import type { ServiceRecord } from './ports';

/** For use cases where a missing service is an error the caller should see. */
export function orNotFound(service: ServiceRecord | null): ServiceRecord {
  if (!service) throw new AppError('PRICING_SERVICE_NOT_FOUND', MESSAGES.serviceNotFound);
  return service;
}
