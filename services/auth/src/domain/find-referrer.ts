import { AppError } from '@flatship/kit';
import { MESSAGES } from './messages';
import type { Tx, UserRecord, UsersRepo } from './ports';

/**
 * The user whose referral code this is (already normalised). An unknown code is refused, and so is a blocked
 * user's: a blocked account recruits nobody, and a newcomer told so now can ask for another code, where one
 * accepted silently would have been promised a bonus that the block withholds. A user blocked after the link
 * was made keeps their referrals; the bonus then leaves out their side (payments decides that when it pays).
 */
export async function findReferrerOrFail(users: UsersRepo, code: string, tx?: Tx): Promise<UserRecord> {
  const referrer = await users.findByReferralCode(code, tx);
  if (!referrer) throw new AppError('REFERRAL_INVALID_CODE', MESSAGES.referralInvalid);
  if (referrer.activation === 'block') throw new AppError('REFERRAL_CODE_INACTIVE', MESSAGES.referralInactive);
  return referrer;
}
