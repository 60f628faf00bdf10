// Intelligent Mail package barcode (IMpb) tracking numbers, USPS Publication 199.
// 22 digits: Channel Application Identifier (2) + Service Type Code (3) + Mailer ID (6 or 9) + serial + check digit (1).
// A 6-digit MID leaves a 10-digit serial, a 9-digit MID a 7-digit one.

/** The GS1 mod-10 check digit (as used by GTIN, SSCC and IMpb) of a string of digits. */
export function computeMod10CheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new Error('computeMod10CheckDigit expects digits only');
  let sum = 0;
  // Weights run 3, 1, 3, 1… from the rightmost digit, which is the one next to the check digit.
  for (let i = digits.length - 1, weight = 3; i >= 0; i--, weight = weight === 3 ? 1 : 3) {
    sum += (digits.charCodeAt(i) - 48) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

/** Channel Application Identifiers seen on IMpb: 92/93 for mailer-generated labels (9-/6-digit MID), 94/95 for USPS channels. */
const IMPB_PATTERN = /^9[2-5]\d{20}$/;

export function isValidImpb(tracking: string): boolean {
  const digits = tracking.replace(/\s+/g, '');
  if (!IMPB_PATTERN.test(digits)) return false;
  return computeMod10CheckDigit(digits.slice(0, -1)) === Number(digits.at(-1));
}

/** A 6-digit MID starts with 0–8, a 9-digit MID with 9, so the length is never ambiguous on a label. */
export function isValidMailerId(mailerId: string): boolean {
  return /^[0-8]\d{5}$/.test(mailerId) || /^9\d{8}$/.test(mailerId);
}

export function serialLengthFor(mailerId: string): number {
  return 22 - 2 - 3 - mailerId.length - 1;
}

export function buildImpb(input: { serviceTypeCode: string; mailerId: string; serial: string }): string {
  const { serviceTypeCode, mailerId, serial } = input;
  if (!/^\d{3}$/.test(serviceTypeCode)) throw new Error(`Invalid service type code ${serviceTypeCode}`);
  if (!isValidMailerId(mailerId)) throw new Error(`Invalid mailer id ${mailerId}`);
  if (!/^\d+$/.test(serial) || serial.length !== serialLengthFor(mailerId)) {
    throw new Error(`Serial must be ${serialLengthFor(mailerId)} digits for a ${mailerId.length}-digit mailer id`);
  }
  const channel = mailerId.length === 9 ? '92' : '93';
  const body = `${channel}${serviceTypeCode}${mailerId}${serial}`;
  return `${body}${computeMod10CheckDigit(body)}`;
}

/** '9400 1000 0000 0000 0000 00': the grouping printed under the barcode and read out to customers. */
export function formatTrackingNumber(tracking: string): string {
  return tracking.replace(/(\d{4})(?=\d)/g, '$1 ');
}
