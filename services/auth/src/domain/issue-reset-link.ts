import { findUserOrFail } from './find-user';
import type { UsersRepo } from './ports';
import { createResetLink, type ResetLinkDeps } from './reset-link';

/** A reset link an admin hands to the user themselves; nothing is emailed. */
export async function issueResetLink(
  deps: ResetLinkDeps & { users: UsersRepo },
  userId: string,
): Promise<{ link: string; expiresAt: string }> {
  const user = await findUserOrFail(deps.users, userId);
  const { link, expiresAt } = await createResetLink(deps, user.id);
  return { link, expiresAt: expiresAt.toISOString() };
}
