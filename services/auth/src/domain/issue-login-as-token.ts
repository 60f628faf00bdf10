import { AppError } from '@flatship/kit';
import type { LoginAsTokenReply } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import { MESSAGES } from './messages';
import type { SignToken, UsersRepo } from './ports';
import { claimsFor, toInternalUser } from './session-user';

/**
 * A token for `userId` that also names the admin acting as them (claim `imp`), so every service can tell
 * an admin's visit from the user's own requests. A blocked user could not sign in themself, and another
 * admin's account is not a customer's: both are refused.
 */
export async function issueLoginAsToken(
  deps: { users: UsersRepo; signToken: SignToken },
  userId: string,
  adminId: string,
): Promise<LoginAsTokenReply> {
  const user = await findUserOrFail(deps.users, userId);
  if (user.role === 'admin') throw new AppError('LOGIN_AS_NOT_ALLOWED', MESSAGES.loginAsAdmin);
  if (user.activation === 'block') throw new AppError('LOGIN_AS_NOT_ALLOWED', MESSAGES.loginAsBlocked);
  return { token: deps.signToken({ ...claimsFor(user), imp: adminId }), user: toInternalUser(user) };
}
