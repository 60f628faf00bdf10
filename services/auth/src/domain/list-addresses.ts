import type { Address } from '@flatship/proto';
import { toAddress } from './address-view';
import { findUserOrFail } from './find-user';
import type { AddressesRepo, UsersRepo } from './ports';

/** Oldest first: the bulk screen takes the first saved address as the sender. */
export async function listAddresses(
  deps: { users: UsersRepo; addresses: AddressesRepo },
  userId: string,
): Promise<Address[]> {
  await findUserOrFail(deps.users, userId);
  return (await deps.addresses.listByUser(userId)).map(toAddress);
}
