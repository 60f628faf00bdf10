import { findUserOrFail } from './find-user';
import type { UsersRepo } from './ports';

export async function getReferralCode(deps: { users: UsersRepo }, userId: string): Promise<string> {
  return (await findUserOrFail(deps.users, userId)).referralCode;
}
