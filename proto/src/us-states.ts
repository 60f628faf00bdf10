/** The 50 US states (no DC or territories), as the spec's state selectors list them. */
export const US_STATES = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
] as const;

export type UsStateCode = (typeof US_STATES)[number][0];

const CODES = new Set<string>(US_STATES.map(([code]) => code));
export const isUsState = (s: string): s is UsStateCode => CODES.has(s);

/**
 * Where else USPS delivers domestically: DC, the territories and military post offices. A
 * recipient may be there (a marketplace buyer, or one typed into the single-label form); a
 * sender's address comes from the address book, which offers the 50 states only.
 */
export const USPS_EXTRA_STATES = [
  ['DC', 'District of Columbia'],
  ['PR', 'Puerto Rico'],
  ['VI', 'Virgin Islands'],
  ['GU', 'Guam'],
  ['AS', 'American Samoa'],
  ['MP', 'Northern Mariana Islands'],
  ['AA', 'Armed Forces Americas'],
  ['AE', 'Armed Forces Europe'],
  ['AP', 'Armed Forces Pacific'],
] as const;

/** Every state code a recipient may have: the 50 states, then USPS_EXTRA_STATES. */
export const RECIPIENT_STATES = [...US_STATES, ...USPS_EXTRA_STATES] as const;
export type RecipientStateCode = (typeof RECIPIENT_STATES)[number][0];

const RECIPIENT_CODES = new Set<string>(RECIPIENT_STATES.map(([code]) => code));
export const isRecipientState = (s: string): s is RecipientStateCode => RECIPIENT_CODES.has(s);

/** 5-digit ZIP or ZIP+4. */
export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
/** Digits, spaces and hyphens with an optional leading plus (spec doc 1 §5). */
export const PHONE_PATTERN = /^\+?[\d\s-]+$/;
