import { type Static, Type } from 'typebox';
import { AddressCheckSchema } from './address-check-api';
import { IdSchema } from './ids';

/** A saved address (doc 2 §3). Country is US only. */
export const AddressSchema = Type.Object({
  _id: Type.String(),
  address_id: Type.String(),
  name: Type.String(),
  company: Type.String(),
  phone: Type.String(),
  street: Type.String(),
  street2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
  country: Type.String(),
  /** The carrier found it deliverable when it was saved: a label from it needs no new check. */
  verified: Type.Optional(Type.Boolean()),
  /** What the carrier said when it was saved (absent for addresses saved before checks existed). */
  check: Type.Optional(AddressCheckSchema),
});
export type Address = Static<typeof AddressSchema>;

/** Body of save-address and update-address; the domain checks every rule and names the field. */
export const AddressInputSchema = Type.Object({
  address_id: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  company: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  phone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  street: Type.Optional(Type.String()),
  street2: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  city: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  zip: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  country: Type.Optional(Type.String()),
});
export type AddressInput = Static<typeof AddressInputSchema>;

export const SavedAddressReplySchema = Type.Object({ savedAddress: Type.Array(AddressSchema) });
export type SavedAddressReply = Static<typeof SavedAddressReplySchema>;

/** Body of delete-address: the address's `_id`. */
export const DeleteAddressBodySchema = Type.Object({ id: IdSchema });
export type DeleteAddressBody = Static<typeof DeleteAddressBodySchema>;

export const AddressResultSchema = Type.Object({ message: Type.String(), address: Type.Optional(AddressSchema) });
export type AddressResult = Static<typeof AddressResultSchema>;
