import { findUserOrFail } from './find-user';
import type { PublishUserChanged, Transactor, UsersRepo } from './ports';
import { toUserChangedEvent } from './session-user';

export interface DeleteUserDeps {
  users: UsersRepo;
  transactor: Transactor;
  publishUserChanged: PublishUserChanged;
}

/**
 * Deletes a user for good: they can no longer sign in, every token they hold stops working, and their
 * email can register again. The row stays (soft delete) because orders, the ledger and label files name
 * them and are kept for the books. Announced as `user.changed` with `deleted`.
 */
export async function deleteUser(deps: DeleteUserDeps, userId: string): Promise<void> {
  await deps.transactor.run(async (tx) => {
    const deleted = await deps.users.softDelete(userId, tx);
    if (!deleted) {
      await findUserOrFail(deps.users, userId, tx);
      return;
    }
    await deps.publishUserChanged(tx, toUserChangedEvent(deleted));
  });
}
