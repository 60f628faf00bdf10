import { AppError } from '@flatship/kit';
import { MESSAGES } from './messages';
import type { AddressesRepo } from './ports';

/** Removes one of the user's addresses; someone else's answers as missing, and is untouched. */
export async function deleteAddress(deps: { addresses: AddressesRepo }, userId: string, id: string): Promise<void> {
  if (!(await deps.addresses.delete(userId, id))) throw new AppError('ADDRESS_NOT_FOUND', MESSAGES.addressNotFound);
}
