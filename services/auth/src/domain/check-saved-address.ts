import type { AddressCheck } from '@flatship/proto';
import type { AddressChecker, AddressFields } from './ports';

export interface CheckSavedAddressDeps {
  /** Absent when auth has no way to the carriers (ORDERS_URL unset): addresses are saved unchecked. */
  addressChecker?: AddressChecker | null;
}

/** A saved address is checked with the carrier as it is saved; the answer is kept with it. */
export async function checkSavedAddress(
  deps: CheckSavedAddressDeps,
  fields: AddressFields,
): Promise<AddressCheck | null> {
  return deps.addressChecker ? deps.addressChecker.check(fields) : null;
}
