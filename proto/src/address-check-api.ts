import { type Static, Type } from 'typebox';

// Address checks before paying: what the carrier says of an address (deliverable, a correction, undeliverable),
// or that it could not be asked. Nothing is charged for a check.

const Text = Type.Optional(Type.Union([Type.String(), Type.Null()]));

/** An address to check. Lenient shape: the domain names the field that is missing or wrong. */
export const AddressToCheckSchema = Type.Object({
  name: Text,
  company: Text,
  street1: Text,
  street2: Text,
  city: Text,
  state: Text,
  zip: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
});
export type AddressToCheck = Static<typeof AddressToCheckSchema>;

/** An address as the address book and the label form keep it (`street`, `street2`), as a check takes it. */
export const addressToCheck = (a: {
  name: string;
  company?: string | undefined;
  street: string;
  street2?: string | undefined;
  city: string;
  state: string;
  zip: string;
}): AddressToCheck => ({
  name: a.name,
  company: a.company,
  street1: a.street,
  street2: a.street2,
  city: a.city,
  state: a.state,
  zip: a.zip,
});

/** The address a carrier would deliver to, in its standard form. */
export const CheckedAddressSchema = Type.Object({
  street1: Type.String(),
  street2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
});
export type CheckedAddress = Static<typeof CheckedAddressSchema>;

export const ADDRESS_VERDICTS = ['deliverable', 'corrected', 'undeliverable', 'unavailable'] as const;
export type AddressVerdictName = (typeof ADDRESS_VERDICTS)[number];

/**
 * A check's answer. `deliverable`: as given (small differences of case, punctuation or a ZIP+4 do not count);
 * `corrected`: the carrier suggests `address` (`corrected` names the fields that differ); `undeliverable`: the
 * carrier will not deliver there (`message` says why); `unavailable`: the carrier could not be asked now.
 */
export const AddressCheckSchema = Type.Object({
  verdict: Type.Union([
    Type.Literal('deliverable'),
    Type.Literal('corrected'),
    Type.Literal('undeliverable'),
    Type.Literal('unavailable'),
  ]),
  address: Type.Optional(CheckedAddressSchema),
  corrected: Type.Optional(Type.Array(Type.String())),
  message: Type.Optional(Type.String()),
});
export type AddressCheck = Static<typeof AddressCheckSchema>;

/** A service's uid (`usps_priority_mail`): the check goes to a carrier that sells it. */
const ServiceUid = Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,100}$' }));

/** POST /api/orders/verify-address (and /internal/verify-address). */
export const VerifyAddressBodySchema = Type.Object({ address: AddressToCheckSchema, service_uid: ServiceUid });
export type VerifyAddressBody = Static<typeof VerifyAddressBodySchema>;

/** How many addresses one call to POST /api/orders/verify-addresses may check; a file's rows go in chunks. */
export const VERIFY_BATCH_MAX = 100;

/** POST /api/orders/verify-addresses: up to VERIFY_BATCH_MAX addresses, answered in the same order. */
export const VerifyAddressesBodySchema = Type.Object({
  addresses: Type.Array(AddressToCheckSchema),
  service_uid: ServiceUid,
});
export type VerifyAddressesBody = Static<typeof VerifyAddressesBodySchema>;
export const VerifyAddressesReplySchema = Type.Object({ results: Type.Array(AddressCheckSchema) });
export type VerifyAddressesReply = Static<typeof VerifyAddressesReplySchema>;

/** What the web shows when the carrier could not be asked: buying goes on. */
export const ADDRESS_CHECK_UNAVAILABLE = 'Could not check this address';
