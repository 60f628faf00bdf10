// No schema library here: the browser bundle imports these values.
import { LIMITS } from './limits';

const CHOSEN_REFERRAL_CODE = new RegExp(`^[A-Za-z0-9]{${LIMITS.referralCodeMin},${LIMITS.referralCodeMax}}$`);

/**
 * A referral code an admin chooses: ASCII letters and digits only, so it survives URLs (`?ref=`) and being read
 * aloud, and 4 to 32 of them. Checked on the trimmed text, before upper-casing (some letters become plain ASCII only
 * then: 'ß' turns into 'SS'). The web app checks the same before saving; the server decides.
 */
export function isValidChosenReferralCode(trimmedCode: string): boolean {
  return CHOSEN_REFERRAL_CODE.test(trimmedCode);
}

export const REFERRAL_CODE_FORMAT_MESSAGE = `Referral code must be ${LIMITS.referralCodeMin} to ${LIMITS.referralCodeMax} letters or digits`;
