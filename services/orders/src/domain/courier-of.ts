import { courierOfService } from '@flatship/carriers';
import { AppError } from '@flatship/kit';

/**
 * The courier a label is bought from: the carrier that sells its service, from the carriers registry. Pricing only
 * sells services a carrier offered, so a service no carrier knows is a fault here, found before any money moves.
 */
export function courierOf(serviceUid: string): string {
  const courier = courierOfService(serviceUid);
  if (!courier) throw new AppError('INTERNAL', `no carrier sells the service ${serviceUid}`);
  return courier;
}
