import type { InternalClient } from '@flatship/kit';
import { ADDRESS_CHECK_UNAVAILABLE, type AddressCheck, addressToCheck, type VerifyAddressBody } from '@flatship/proto';
import type { AddressChecker } from '../domain/ports';

export const VERIFY_ADDRESS_PATH = '/internal/verify-address';

/**
 * Checks a saved address through orders, which holds the carriers (auth has none). Auth asks the server itself,
 * never takes a verdict from the browser: a client could otherwise mark any address verified. Orders away or
 * failing is an outage of the check, not of saving: the address is saved unchecked.
 */
export function createOrdersAddressChecker(
  client: InternalClient,
  log?: { warn(obj: object, msg: string): void },
): AddressChecker {
  return {
    async check(a) {
      const body: VerifyAddressBody = { address: addressToCheck(a) };
      try {
        return await client.request<AddressCheck>('POST', VERIFY_ADDRESS_PATH, { body });
      } catch (err) {
        log?.warn({ err }, 'saved address not checked: orders did not answer');
        return { verdict: 'unavailable', message: ADDRESS_CHECK_UNAVAILABLE };
      }
    },
  };
}
