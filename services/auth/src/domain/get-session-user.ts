import type { SessionUser } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { MoneySummarySource, UsersRepo } from './ports';
import { toSessionUser } from './session-user';

/**
 * The signed-in user with their money fields. The user's row and their money
 * (from payments) are read at once rather than one after the other: the
 * session check runs on every page load.
 */
export async function getSessionUser(
  deps: { users: UsersRepo; money: MoneySummarySource },
  userId: string,
): Promise<SessionUser> {
  const [user, money] = await Promise.all([findUserOrFail(deps.users, userId), deps.money.get([userId])]);
  return toSessionUser(user, money.get(user.id));
}
