import { AppError, type AuthContext } from '@flatship/kit';
import { MESSAGES } from './messages';
import type { PublishUserChanged, Transactor, UsersRepo } from './ports';
import { toUserChangedEvent } from './session-user';

export interface EndLoginAsDeps {
  users: UsersRepo;
  transactor: Transactor;
  publishUserChanged: PublishUserChanged;
}

/**
 * "Back to admin": ends every login-as token of the admin behind the caller, whether the caller holds one of
 * them or the admin's own token, by moving the admin's impersonation version on. The admin's own sessions and
 * other admins' visits are untouched. `user.changed` for the admin, in the same transaction, evicts the admin's
 * token state from every service's cache, so the tokens stop working everywhere at once.
 */
export async function endLoginAs(deps: EndLoginAsDeps, caller: AuthContext): Promise<void> {
  const adminId = caller.impersonatorId ?? (caller.role === 'admin' ? caller.userId : null);
  if (!adminId) throw new AppError('FORBIDDEN', MESSAGES.noLoginAsToEnd);
  await deps.transactor.run(async (tx) => {
    const admin = await deps.users.bumpImpersonationVersion(adminId, tx);
    if (admin) await deps.publishUserChanged(tx, toUserChangedEvent(admin));
  });
}
