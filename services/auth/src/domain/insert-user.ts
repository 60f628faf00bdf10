import { AppError } from '@flatship/kit';
import { MESSAGES } from './messages';
import type { NewUser, Tx, UserRecord, UsersRepo } from './ports';
import { generateReferralCode } from './referral-code';

// With 31^8 codes a collision is rare; a handful of retries makes failure practically impossible.
const MAX_CODE_ATTEMPTS = 8;

export interface InsertUserDeps {
  users: UsersRepo;
  newReferralCode?: () => string;
}

/**
 * Inserts a user with a freshly generated referral code. The unique indexes
 * decide races: a taken email becomes AUTH_EMAIL_TAKEN, a taken code is
 * simply drawn again.
 */
export async function insertUserWithReferralCode(
  deps: InsertUserDeps,
  user: Omit<NewUser, 'referralCode'>,
  tx?: Tx,
): Promise<UserRecord> {
  const nextCode = deps.newReferralCode ?? generateReferralCode;
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
    const result = await deps.users.insert({ ...user, referralCode: nextCode() }, tx);
    if (result.ok) return result.user;
    if (result.conflict === 'email') throw new AppError('AUTH_EMAIL_TAKEN', MESSAGES.emailTaken);
  }
  throw new Error(`no free referral code after ${MAX_CODE_ATTEMPTS} attempts`);
}
