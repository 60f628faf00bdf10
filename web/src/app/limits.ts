/**
 * Field limits shared with the server. They mirror LIMITS in @flatship/proto;
 * importing that value would pull the whole schema library into the browser
 * bundle, so limits.test.ts keeps the two in step instead.
 */
export const LIMITS = {
  nameMax: 200,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 200,
  referralCodeMax: 32,
  /** Every saved-address field. */
  addressFieldMax: 200,
  savedAddressesMax: 500,
} as const;
