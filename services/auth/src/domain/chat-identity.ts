import { createHmac } from 'node:crypto';
import type { ChatwootIdentity } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { UsersRepo } from './ports';

/** Chatwoot's identity validation: hex HMAC-SHA256 of the identifier, keyed with the inbox's HMAC token. */
export const chatIdentityHash = (identifier: string, hmacToken: string): string =>
  createHmac('sha256', hmacToken).update(identifier, 'utf8').digest('hex');

/** The signed-in user as the chat widget introduces them; the user id is the identifier. */
export async function chatIdentity(
  deps: { users: UsersRepo },
  hmacToken: string,
  userId: string,
): Promise<ChatwootIdentity> {
  const user = await findUserOrFail(deps.users, userId);
  return {
    identifier: user.id,
    email: user.email,
    name: user.name,
    avatar: user.avatar,
    hash: chatIdentityHash(user.id, hmacToken),
  };
}
