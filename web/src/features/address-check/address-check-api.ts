import type {
  AddressCheck,
  AddressToCheck,
  VerifyAddressBody,
  VerifyAddressesBody,
  VerifyAddressesReply,
} from '@flatship/proto';
import { postJson } from '../../app/http';

export type { AddressCheck, AddressToCheck };

/** Address checks with the carrier; nothing is charged for them. */
export const addressCheckApi = {
  verify: (address: AddressToCheck, serviceUid?: string) =>
    postJson<AddressCheck>('orders/verify-address', {
      address,
      ...(serviceUid ? { service_uid: serviceUid } : {}),
    } satisfies VerifyAddressBody),
  /** Up to VERIFY_BATCH_MAX addresses, answered in the same order. */
  verifyMany: (addresses: AddressToCheck[], serviceUid?: string) =>
    postJson<VerifyAddressesReply>('orders/verify-addresses', {
      addresses,
      ...(serviceUid ? { service_uid: serviceUid } : {}),
    } satisfies VerifyAddressesBody),
};
