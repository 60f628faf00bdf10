import type { InternalUser, Role } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { PublishUserChanged, Transactor, UsersRepo } from './ports';
import { toInternalUser, toUserChangedEvent } from './session-user';

export interface ChangeRoleDeps {
  users: UsersRepo;
  transactor: Transactor;
  publishUserChanged: PublishUserChanged;
}

/**
 * Gives a user another role. Tokens carry the role, so a real change bumps
 * the token version (older tokens stop working) and is announced in the same
 * transaction; asking for the current role changes nothing.
 */
export async function changeRole(deps: ChangeRoleDeps, userId: string, role: Role): Promise<InternalUser> {
  return deps.transactor.run(async (tx) => {
    const changed = await deps.users.changeRole(userId, role, tx);
    if (!changed) return toInternalUser(await findUserOrFail(deps.users, userId, tx));
    await deps.publishUserChanged(tx, toUserChangedEvent(changed));
    return toInternalUser(changed);
  });
}
