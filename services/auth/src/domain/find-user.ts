import { AppError } from '@flatship/kit';
import { MESSAGES } from './messages';
import type { Tx, UserRecord, UsersRepo } from './ports';

/** For use cases where a missing user is an error the caller should see. */
export async function findUserOrFail(users: UsersRepo, id: string, tx?: Tx): Promise<UserRecord> {
  const user = await users.findById(id, tx);
  if (!user) throw new AppError('USER_NOT_FOUND', MESSAGES.userNotFound);
  return user;
}
