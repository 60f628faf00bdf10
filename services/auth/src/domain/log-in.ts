import { AppError } from '@flatship/kit';
import { LIMITS, type SessionUser } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { MoneySummarySource, PasswordHasher, SignToken, UsersRepo } from './ports';
import { normaliseEmail } from './rules';
import { claimsFor, loadSessionUser } from './session-user';

export interface LogInDeps {
  users: UsersRepo;
  hasher: PasswordHasher;
  signToken: SignToken;
  money: MoneySummarySource;
}

export async function logIn(
  deps: LogInDeps,
  input: { email: string; password: string },
): Promise<{ token: string; user: SessionUser }> {
  const email = normaliseEmail(input.email);
  if (!email || !input.password) throw new AppError('AUTH_FIELDS_MISSING', MESSAGES.fieldsMissing);

  const invalid = new AppError('AUTH_INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
  // No stored password is longer than the limit, so such input cannot match; don't hash megabytes for it.
  const password = input.password.length > LIMITS.passwordMax ? '' : input.password;
  const user = email.length > LIMITS.emailMax ? null : await deps.users.findByEmail(email);
  if (!user) {
    await deps.hasher.verifyNothing(password);
    throw invalid;
  }
  if (!password || !(await deps.hasher.verify(user.passwordHash, password))) throw invalid;
  // Only someone who knows the password learns that the account is blocked.
  if (user.activation === 'block') throw new AppError('AUTH_ACCOUNT_BLOCKED', MESSAGES.accountBlocked);

  return { token: deps.signToken(claimsFor(user)), user: await loadSessionUser(deps, user) };
}
