import type { SessionUser } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { MoneySummarySource, UsersRepo } from './ports';
import { loadSessionUser } from './session-user';

export async function getSessionUser(
  deps: { users: UsersRepo; money: MoneySummarySource },
  userId: string,
): Promise<SessionUser> {
  return loadSessionUser(deps, await findUserOrFail(deps.users, userId));
}
