import type { InvitedUser, ReferralBonusState } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { MoneySummary, MoneySummarySource, ReferralBonusSource, UsersRepo } from './ports';

/**
 * Everyone who registered with (or later applied) this user's code, newest first, with their total deposit and
 * the referral bonus of each referral (both sides: what the referrer got, what the invited user got).
 */
export async function listInvitedUsers(
  deps: { users: UsersRepo; money: MoneySummarySource; referralBonuses: ReferralBonusSource },
  userId: string,
): Promise<InvitedUser[]> {
  await findUserOrFail(deps.users, userId);
  const invited = await deps.users.listReferredBy(userId);
  const ids = invited.map((u) => u.id);
  const [money, bonuses] =
    ids.length > 0
      ? await Promise.all([deps.money.get(ids), deps.referralBonuses.get(ids)])
      : [new Map<string, MoneySummary>(), new Map<string, ReferralBonusState>()];
  return invited.map((u) => {
    const bonus = bonuses.get(u.id);
    return {
      name: u.name,
      registeredDate: u.createdAt.toISOString(),
      totalDeposit: money.get(u.id)?.totalDeposit ?? 0,
      ...(bonus ? { bonus } : {}),
    };
  });
}
