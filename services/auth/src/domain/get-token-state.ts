import type { TokenState } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { UsersRepo } from './ports';
import { toTokenState } from './session-user';

/** What the gateway and other services need to accept or refuse a token. */
export async function getTokenState(deps: { users: UsersRepo }, userId: string): Promise<TokenState> {
  return toTokenState(await findUserOrFail(deps.users, userId));
}
