import { AppError } from '@flatship/kit';
import type { Address, AddressInput } from '@flatship/proto';
import { validateAddress } from './address-rules';
import { toAddress } from './address-view';
import { type CheckSavedAddressDeps, checkSavedAddress } from './check-saved-address';
import { MESSAGES } from './messages';
import type { AddressesRepo } from './ports';

/**
 * Replaces every field of one of the user's addresses (the form sends the
 * whole row), checked again with the carrier. Someone else's address answers as missing, and is untouched.
 */
export async function updateAddress(
  deps: { addresses: AddressesRepo } & CheckSavedAddressDeps,
  userId: string,
  addressRecordId: string,
  input: AddressInput,
): Promise<Address> {
  const fields = validateAddress(input);
  fields.check = await checkSavedAddress(deps, fields);
  const result = await deps.addresses.update(userId, addressRecordId, fields);
  if (!result) throw new AppError('ADDRESS_NOT_FOUND', MESSAGES.addressNotFound);
  if (!result.ok) throw new AppError('ADDRESS_ID_TAKEN', MESSAGES.addressIdTaken);
  return toAddress(result.address);
}
