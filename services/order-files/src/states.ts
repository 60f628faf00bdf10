import { RECIPIENT_STATES } from '@flatship/proto';

const CODE_BY_NAME = new Map<string, string>(RECIPIENT_STATES.map(([code, name]) => [name.toUpperCase(), code]));
CODE_BY_NAME.set('WASHINGTON DC', 'DC');
CODE_BY_NAME.set('WASHINGTON D C', 'DC');
CODE_BY_NAME.set('US VIRGIN ISLANDS', 'VI');

const TWO_CAPITALS = /^[A-Z]{2}$/;

/** 'ca', 'N.Y.', 'California' → two-letter code; anything unrecognised is returned trimmed, for validation to name. */
export function normalizeState(value: string): string {
  // Most cells already hold a code ('CA'), which the steps below would return as it is.
  if (value.length === 2 && TWO_CAPITALS.test(value)) return value;
  const trimmed = value.trim();
  const key = trimmed.toUpperCase().replace(/\./g, ' ').replace(/,/g, ' ').replace(/\s+/g, ' ').trim();
  const compact = key.replace(/ /g, '');
  if (/^[A-Z]{2}$/.test(compact)) return compact;
  return CODE_BY_NAME.get(key) ?? trimmed;
}

const US_NAMES = new Set(['US', 'USA', 'UNITED STATES', 'UNITED STATES OF AMERICA', 'AMERICA']);

/** Blank means the default country; the spellings of the United States become 'US'. */
export function normalizeCountry(value: string): string {
  if (value === 'US') return value;
  const key = value.trim().toUpperCase().replace(/\./g, '').replace(/\s+/g, ' ');
  if (key === '' || US_NAMES.has(key)) return 'US';
  return value.trim();
}

/** ZIP+4 written without its hyphen gets one; nothing else changes, so validation sees what was typed. */
export function normalizeZip(value: string): string {
  const trimmed = value.trim();
  return /^\d{9}$/.test(trimmed) ? `${trimmed.slice(0, 5)}-${trimmed.slice(5)}` : trimmed;
}

/**
 * Spreadsheets store ZIP codes as numbers and drop their leading zeros ('02215' → '2215'). A US
 * ZIP is always five digits, so a 3- or 4-digit one read from a file can only be that damage.
 */
export function repairFileZip(value: string): string {
  const zip = normalizeZip(value);
  const match = /^(\d{3,4})(-\d{4})?$/.exec(zip);
  return match ? `${match[1]!.padStart(5, '0')}${match[2] ?? ''}` : zip;
}

const PLAIN_PHONE = /^(?:\d+(?:-\d+)*)?$/;

/**
 * '(415) 555-0142', '415.555.0142' and Amazon's '+1 415-555-0142 ext. 12345' become digits,
 * spaces and hyphens (PHONE_PATTERN). A label carries the number only, so an extension is dropped.
 */
export function normalizePhone(value: string): string {
  // Digits and single hyphens ('415-555-0142', '4155550142') come out unchanged: skip the five passes.
  if (PLAIN_PHONE.test(value)) return value;
  return value
    .trim()
    .replace(/\s*(?:ext\.?|extension|x)\s*\d+$/i, '')
    .replace(/[().]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s*-\s*/g, '-')
    .trim();
}
