import type { Activation, InternalUser } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { PublishUserChanged, Transactor, UsersRepo } from './ports';
import { toInternalUser, toUserChangedEvent } from './session-user';

export interface ChangeActivationDeps {
  users: UsersRepo;
  transactor: Transactor;
  publishUserChanged: PublishUserChanged;
}

/**
 * Allows or blocks a user. A real change bumps the token version, revoking
 * every token they hold, and announces it in the same transaction; asking for
 * the current value changes nothing and announces nothing.
 */
export async function changeActivation(
  deps: ChangeActivationDeps,
  userId: string,
  activation: Activation,
): Promise<InternalUser> {
  return deps.transactor.run(async (tx) => {
    const changed = await deps.users.changeActivation(userId, activation, tx);
    if (!changed) return toInternalUser(await findUserOrFail(deps.users, userId, tx));
    await deps.publishUserChanged(tx, toUserChangedEvent(changed));
    return toInternalUser(changed);
  });
}
