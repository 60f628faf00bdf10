import { AppError } from '@flatship/kit';
import type { SessionUser } from '@flatship/proto';
import { findReferrerOrFail } from './find-referrer';
import { insertUserWithReferralCode } from './insert-user';
import { MESSAGES } from './messages';
import type { PasswordHasher, PublishUserChanged, SignToken, Transactor, UsersRepo } from './ports';
import { type RegistrationInput, validateRegistration } from './rules';
import { claimsFor, toSessionUser, toUserChangedEvent } from './session-user';

export interface RegisterUserDeps {
  users: UsersRepo;
  hasher: PasswordHasher;
  signToken: SignToken;
  transactor: Transactor;
  publishUserChanged: PublishUserChanged;
  newReferralCode?: () => string;
}

export async function registerUser(
  deps: RegisterUserDeps,
  input: RegistrationInput,
): Promise<{ token: string; user: SessionUser }> {
  const valid = validateRegistration(input);

  // Checked before the expensive hash so the common mistake answers fast;
  // the unique index still settles two registrations racing for one email.
  if (await deps.users.findByEmail(valid.email)) throw new AppError('AUTH_EMAIL_TAKEN', MESSAGES.emailTaken);

  let referredBy: string | null = null;
  if (valid.referralCode) referredBy = (await findReferrerOrFail(deps.users, valid.referralCode)).id;

  const passwordHash = await deps.hasher.hash(valid.password);
  // Announced in the same transaction, so read models of other services learn of every user.
  const user = await deps.transactor.run(async (tx) => {
    const inserted = await insertUserWithReferralCode(
      deps,
      { name: valid.name, email: valid.email, passwordHash, role: 'user', activation: 'allow', referredBy },
      tx,
    );
    await deps.publishUserChanged(tx, toUserChangedEvent(inserted));
    return inserted;
  });
  // A brand-new user has no deposits or spending, so payments need not be asked.
  return { token: deps.signToken(claimsFor(user)), user: toSessionUser(user) };
}
