import { AppError, AUTH_MESSAGES } from '@flatship/kit';
import type { LoginAsTokenReply } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import { MESSAGES } from './messages';
import type { SignToken, UsersRepo } from './ports';
import { claimsFor, toInternalUser } from './session-user';

/**
 * A token for `userId` that also names the admin acting as them (claim `imp`), so every service can tell
 * an admin's visit from the user's own requests. It carries the admin's impersonation version (claim `iv`)
 * and lives `ttl` (LOGIN_AS_TTL, short): every service refuses it once the admin is no longer an active
 * admin or has gone back to their own account. A blocked user could not sign in themself, and another
 * admin's account is not a customer's: both are refused.
 */
export async function issueLoginAsToken(
  deps: { users: UsersRepo; signToken: SignToken; loginAsTtl: string },
  userId: string,
  adminId: string,
): Promise<LoginAsTokenReply> {
  const [user, admin] = await Promise.all([findUserOrFail(deps.users, userId), deps.users.findById(adminId)]);
  // The admin service checked the caller a moment ago; a change since then is honoured here too.
  if (admin?.role !== 'admin' || admin.activation !== 'allow') {
    throw new AppError('FORBIDDEN', AUTH_MESSAGES.forbidden);
  }
  if (user.role === 'admin') throw new AppError('LOGIN_AS_NOT_ALLOWED', MESSAGES.loginAsAdmin);
  if (user.activation === 'block') throw new AppError('LOGIN_AS_NOT_ALLOWED', MESSAGES.loginAsBlocked);
  const claims = { ...claimsFor(user), imp: admin.id, iv: admin.impersonationVersion };
  return { token: deps.signToken(claims, { expiresIn: deps.loginAsTtl }), user: toInternalUser(user) };
}
