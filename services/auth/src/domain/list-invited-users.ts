import type { InvitedUser } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { MoneySummary, MoneySummarySource, UsersRepo } from './ports';

/** Everyone who registered with (or later applied) this user's code, newest first. */
export async function listInvitedUsers(
  deps: { users: UsersRepo; money: MoneySummarySource },
  userId: string,
): Promise<InvitedUser[]> {
  await findUserOrFail(deps.users, userId);
  const invited = await deps.users.listReferredBy(userId);
  const money = invited.length > 0 ? await deps.money.get(invited.map((u) => u.id)) : new Map<string, MoneySummary>();
  return invited.map((u) => ({
    name: u.name,
    registeredDate: u.createdAt.toISOString(),
    totalDeposit: money.get(u.id)?.totalDeposit ?? 0,
  }));
}
