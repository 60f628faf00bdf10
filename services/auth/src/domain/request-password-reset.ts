import type { DomainLogger, ResetMailer, UsersRepo } from './ports';
import { createResetLink, type ResetLinkDeps } from './reset-link';
import { isValidEmail, normaliseEmail } from './rules';

export interface RequestPasswordResetDeps extends ResetLinkDeps {
  users: UsersRepo;
  mailer: ResetMailer;
  logger: DomainLogger;
}

/**
 * Sends a reset link to the account with this email, if there is one. The
 * caller answers the same way either way, and before calling this, so neither
 * the answer nor its timing tells whether an email is registered (the lookup,
 * the reset row and the mail all come after it).
 */
export async function requestPasswordReset(deps: RequestPasswordResetDeps, rawEmail: string): Promise<void> {
  const email = normaliseEmail(rawEmail);
  if (!isValidEmail(email)) return;
  const user = await deps.users.findByEmail(email);
  if (!user) return;
  const { link, expiresAt } = await createResetLink(deps, user.id);
  void deps.mailer
    .send({ to: user.email, name: user.name, link, expiresAt })
    .catch((err: unknown) => deps.logger.error({ err, userId: user.id }, 'password reset email could not be sent'));
}
