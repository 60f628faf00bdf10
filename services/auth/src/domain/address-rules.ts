import { AppError } from '@flatship/kit';
import { type AddressInput, isUsState, LIMITS, PHONE_PATTERN, ZIP_PATTERN } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { AddressFields } from './ports';

// The saved-address rules (spec doc 2 §3 and §5, doc 1 §5), pure: the save and
// update use cases both go through validateAddress, so the two cannot drift.

type FieldKey = keyof AddressInput;

/** How each field is named in messages, in the order the form shows them (and problems are reported). */
export const ADDRESS_FIELD_LABELS = {
  address_id: 'Address ID',
  name: 'Name',
  company: 'Company',
  phone: 'Phone',
  street: 'Street',
  street2: 'Street 2',
  city: 'City',
  state: 'State',
  zip: 'ZIP',
  country: 'Country',
} as const satisfies Record<FieldKey, string>;

const REQUIRED = new Set<FieldKey>(['address_id', 'name', 'street', 'city', 'state', 'zip', 'country']);

// Every spelling of the one supported country that people commonly type.
const US_NAMES = new Set(['US', 'USA', 'UNITED STATES', 'UNITED STATES OF AMERICA']);

const invalid = (message: string) => new AppError('ADDRESS_INVALID', message);

/**
 * A number has lost any leading zeros (02134 arrives as 2134), so it is never
 * padded into a guess: it passes only if its digits alone still form a ZIP.
 */
const zipText = (zip: AddressInput['zip']): string | null | undefined => (typeof zip === 'number' ? String(zip) : zip);

/** Checks an address as the form sends it and returns it trimmed and normalised, or throws naming the first bad field. */
export function validateAddress(input: AddressInput): AddressFields {
  const text = {} as Record<FieldKey, string>;
  for (const key of Object.keys(ADDRESS_FIELD_LABELS) as FieldKey[]) {
    const label = ADDRESS_FIELD_LABELS[key];
    const raw = key === 'zip' ? zipText(input.zip) : input[key];
    const value = (raw ?? '').trim();
    if (!value && REQUIRED.has(key)) throw invalid(`${label} is required`);
    if (value.length > LIMITS.addressFieldMax) {
      throw invalid(`${label} must be at most ${LIMITS.addressFieldMax} characters`);
    }
    text[key] = value;
  }

  if (text.phone && !PHONE_PATTERN.test(text.phone)) throw invalid(MESSAGES.invalidPhone);
  // ASCII first: a few other letters upper-case into ASCII ones ('ın' would become 'IN').
  const state = /^[A-Za-z]{2}$/.test(text.state) ? text.state.toUpperCase() : '';
  if (!isUsState(state)) throw invalid(MESSAGES.stateNotUs);
  if (!ZIP_PATTERN.test(text.zip)) throw invalid(MESSAGES.invalidZip);
  if (!US_NAMES.has(text.country.toUpperCase().replace(/\./g, '').replace(/\s+/g, ' '))) {
    throw invalid(MESSAGES.countryNotUs);
  }

  return {
    addressId: text.address_id,
    name: text.name,
    company: text.company,
    phone: text.phone,
    street: text.street,
    street2: text.street2,
    city: text.city,
    state,
    zip: text.zip,
    country: 'US',
  };
}
