import { AppError } from '@flatship/kit';
import type { InternalUser } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { PublishUserChanged, Transactor, UsersRepo } from './ports';
import { isValidChosenReferralCode, normaliseReferralCode } from './rules';
import { toInternalUser, toUserChangedEvent } from './session-user';

/**
 * Gives a user a referral code chosen by an admin. People already linked to
 * this user stay linked (links are by user, not by code); the old code simply
 * stops working for new sign-ups.
 */
export async function setReferralCode(
  deps: { users: UsersRepo; transactor: Transactor; publishUserChanged: PublishUserChanged },
  userId: string,
  referralCode: string,
): Promise<InternalUser> {
  // Checked before upper-casing: some letters change into plain ASCII only then ('ß' becomes 'SS').
  if (!isValidChosenReferralCode(referralCode.trim())) {
    throw new AppError('VALIDATION_FAILED', MESSAGES.referralCodeFormat);
  }
  // The unique index on upper(referral_code) decides, also between two admins racing for one code.
  const result = await deps.transactor.run(async (tx) => {
    const set = await deps.users.setReferralCode(userId, normaliseReferralCode(referralCode), tx);
    if (set?.ok) await deps.publishUserChanged(tx, toUserChangedEvent(set.user));
    return set;
  });
  if (!result) throw new AppError('USER_NOT_FOUND', MESSAGES.userNotFound);
  if (!result.ok) throw new AppError('REFERRAL_CODE_TAKEN', MESSAGES.referralCodeTaken);
  return toInternalUser(result.user);
}
