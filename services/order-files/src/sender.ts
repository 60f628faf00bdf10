import type { Address } from '@flatship/proto';
import type { BulkRow } from './bulk-row';
import { OrderFileError } from './errors';
import { normalizeCountry, normalizePhone, normalizeState } from './states';

export const ADDRESS_REQUIRED_MESSAGE = 'Please add an address first';

export function requireSender(address: Address | null): Address {
  if (!address) throw new OrderFileError(ADDRESS_REQUIRED_MESSAGE);
  return address;
}

type SenderFields =
  | 'FromSenderName'
  | 'FromCompany'
  | 'FromPhone'
  | 'FromStreet1'
  | 'FromStreet2'
  | 'FromCity'
  | 'FromStateProvince'
  | 'FromZipPostal'
  | 'FromCountry';

/** Marketplace files name only the buyer: the user's first saved address ships every row, with these sender cells. */
export function senderFields(address: Address): Pick<BulkRow, SenderFields> {
  return {
    FromSenderName: address.name.trim(),
    FromCompany: (address.company ?? '').trim(),
    FromPhone: normalizePhone(address.phone ?? ''),
    FromStreet1: address.street.trim(),
    FromStreet2: (address.street2 ?? '').trim(),
    FromCity: address.city.trim(),
    FromStateProvince: normalizeState(address.state),
    FromZipPostal: address.zip.trim(),
    FromCountry: normalizeCountry(address.country ?? ''),
  };
}
