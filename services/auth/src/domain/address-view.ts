import type { Address } from '@flatship/proto';
import type { AddressRecord } from './ports';

/** A saved address as the SPA knows it (spec doc 2 §3). */
export function toAddress(a: AddressRecord): Address {
  return {
    _id: a.id,
    address_id: a.addressId,
    name: a.name,
    company: a.company,
    phone: a.phone,
    street: a.street,
    street2: a.street2,
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: a.country,
    ...(a.check ? { check: a.check, verified: a.check.verdict === 'deliverable' } : {}),
  };
}
