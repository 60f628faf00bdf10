import { AppError } from '@flatship/kit';
import { type Address, type AddressInput, LIMITS } from '@flatship/proto';
import { validateAddress } from './address-rules';
import { toAddress } from './address-view';
import { type CheckSavedAddressDeps, checkSavedAddress } from './check-saved-address';
import { findUserOrFail } from './find-user';
import { MESSAGES } from './messages';
import type { AddressesRepo, Transactor, UsersRepo } from './ports';

export interface SaveAddressDeps extends CheckSavedAddressDeps {
  users: UsersRepo;
  addresses: AddressesRepo;
  transactor: Transactor;
}

/**
 * Adds an address to the user's book under a label (address_id) they do not use yet, with what the carrier said of
 * it (a suggestion or a warning is shown; the address is saved as typed either way).
 */
export async function saveAddress(deps: SaveAddressDeps, userId: string, input: AddressInput): Promise<Address> {
  const fields = validateAddress(input);
  await findUserOrFail(deps.users, userId);
  // Asked before the transaction: a slow carrier never holds the user's lock.
  fields.check = await checkSavedAddress(deps, fields);
  // Per-user lock: two saves at once cannot both see 499 and both insert.
  return deps.transactor.run(
    async (tx) => {
      if ((await deps.addresses.countByUser(userId, tx)) >= LIMITS.savedAddressesMax) {
        throw new AppError('ADDRESS_LIMIT_REACHED', MESSAGES.addressLimit);
      }
      const result = await deps.addresses.insert(userId, fields, tx);
      if (!result.ok) throw new AppError('ADDRESS_ID_TAKEN', MESSAGES.addressIdTaken);
      return toAddress(result.address);
    },
    { lockKey: `auth:addresses:${userId}` },
  );
}
