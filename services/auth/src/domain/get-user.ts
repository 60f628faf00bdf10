import type { InternalUser } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { UsersRepo } from './ports';
import { toInternalUser } from './session-user';

export async function getUser(deps: { users: UsersRepo }, userId: string): Promise<InternalUser> {
  return toInternalUser(await findUserOrFail(deps.users, userId));
}
