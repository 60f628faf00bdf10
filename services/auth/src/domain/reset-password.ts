import { AppError } from '@flatship/kit';
import { MESSAGES } from './messages';
import type { Clock, PasswordHasher, PasswordResetsRepo, PublishUserChanged, Transactor, UsersRepo } from './ports';
import { hashResetToken } from './reset-link';
import { assertValidPassword } from './rules';
import { toUserChangedEvent } from './session-user';

export interface ResetPasswordDeps {
  users: UsersRepo;
  resets: PasswordResetsRepo;
  hasher: PasswordHasher;
  transactor: Transactor;
  publishUserChanged: PublishUserChanged;
  clock: Clock;
}

/**
 * Sets a new password through a reset link. The link is used up, every other
 * link of the user dies with it, and the token version moves on so every
 * session the user had (a thief's included) ends.
 */
export async function resetPassword(deps: ResetPasswordDeps, token: string, password: string): Promise<void> {
  // The password is checked before the link is spent, so a typo does not cost the user their link.
  if (!password.trim()) throw new AppError('AUTH_FIELDS_MISSING', MESSAGES.fieldsMissing);
  assertValidPassword(password);
  if (!token.trim()) throw new AppError('AUTH_RESET_LINK_INVALID', MESSAGES.resetLinkInvalid);
  const passwordHash = await deps.hasher.hash(password);
  await deps.transactor.run(async (tx) => {
    const now = deps.clock.now();
    const userId = await deps.resets.consume(hashResetToken(token.trim()), now, tx);
    if (!userId) throw new AppError('AUTH_RESET_LINK_INVALID', MESSAGES.resetLinkInvalid);
    const changed = await deps.users.updatePassword(userId, passwordHash, tx);
    if (!changed) throw new AppError('AUTH_RESET_LINK_INVALID', MESSAGES.resetLinkInvalid);
    await deps.resets.retireAll(userId, now, tx);
    await deps.publishUserChanged(tx, toUserChangedEvent(changed));
  });
}
