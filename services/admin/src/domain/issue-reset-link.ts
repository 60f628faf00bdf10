import type { ResetLinkReply } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { CallContext, UserDirectory } from './ports';

/**
 * An admin issues a password reset link for a user who cannot receive email
 * (or whose install has no SMTP); the admin hands it over. Using it ends all
 * of the user's sessions, as a reset the user asked for does.
 */
export async function issueResetLink(
  deps: { users: UserDirectory },
  userId: string,
  ctx: CallContext,
): Promise<ResetLinkReply> {
  const { link } = await deps.users.issueResetLink(userId, ctx);
  return { message: MESSAGES.resetLinkIssued, link };
}
