import { AppError } from '@flatship/kit';
import type { ReferralParty, ReferralStanding } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { UserRecord, UsersRepo } from './ports';

const partyOf = (u: UserRecord): ReferralParty => ({
  id: u.id,
  activation: u.activation,
  deleted: u.deletedAt !== null,
});

/**
 * Who referred a user and since when, and whether each of them is blocked or deleted now: payments asks before
 * paying a referral bonus. Deleted users are answered too (their bonus is withheld, not forgotten); only an id that never
 * named a user is 404.
 */
export async function getReferralStanding(deps: { users: UsersRepo }, userId: string): Promise<ReferralStanding> {
  const user = await deps.users.findByIdWithDeleted(userId);
  if (!user) throw new AppError('USER_NOT_FOUND', MESSAGES.userNotFound);
  const referrer = user.referredBy ? await deps.users.findByIdWithDeleted(user.referredBy) : null;
  return {
    user: partyOf(user),
    referrer: referrer ? partyOf(referrer) : null,
    referredAt: referrer ? (user.referredAt?.toISOString() ?? null) : null,
  };
}
