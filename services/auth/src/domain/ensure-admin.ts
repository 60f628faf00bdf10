import { insertUserWithReferralCode } from './insert-user';
import type { DomainLogger, PasswordHasher, PublishUserChanged, Transactor, UsersRepo } from './ports';
import { assertValidEmail, assertValidPassword, normaliseEmail } from './rules';
import { toUserChangedEvent } from './session-user';

export interface EnsureAdminDeps {
  users: UsersRepo;
  hasher: PasswordHasher;
  transactor: Transactor;
  logger: DomainLogger;
  /** Without it the admin is still created; read models then learn of them from their seed. */
  publishUserChanged?: PublishUserChanged;
  newReferralCode?: () => string;
}

export type EnsureAdminOutcome = 'created' | 'admin-exists' | 'email-taken';

export const ADMIN_NAME = 'Admin';

/**
 * First-start bootstrap: creates the configured admin when there is no admin
 * at all. Replicas starting together are serialised by a lock, so exactly one
 * creates it. An existing non-admin account with that email is never
 * promoted: whoever registered it chose its password.
 */
export async function ensureAdmin(
  deps: EnsureAdminDeps,
  input: { email: string; password: string },
): Promise<EnsureAdminOutcome> {
  if (await deps.users.hasAdmin()) return 'admin-exists';
  const email = normaliseEmail(input.email);
  assertValidEmail(email);
  assertValidPassword(input.password);
  const passwordHash = await deps.hasher.hash(input.password);

  return deps.transactor.run(
    async (tx) => {
      if (await deps.users.hasAdmin(tx)) return 'admin-exists';
      if (await deps.users.findByEmail(email, tx)) {
        deps.logger.error({ email }, 'ADMIN_EMAIL belongs to an existing non-admin account; no admin was created');
        return 'email-taken';
      }
      const admin = await insertUserWithReferralCode(
        deps,
        { name: ADMIN_NAME, email, passwordHash, role: 'admin', activation: 'allow', referredBy: null },
        tx,
      );
      await deps.publishUserChanged?.(tx, toUserChangedEvent(admin));
      deps.logger.info({ email }, 'admin account created');
      return 'created';
    },
    { lockKey: 'auth:ensure-admin' },
  );
}
