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

  // From here on every attempt costs exactly one password verification, whether the email exists or not and
  // whatever the password, so the time an answer takes says nothing about which accounts exist. A password over
  // the limit cannot match a stored one; it is cut to the limit (so nobody makes us hash megabytes) and checked
  // all the same, then refused.
  const isTooLong = input.password.length > LIMITS.passwordMax;
  const candidate = isTooLong ? input.password.slice(0, LIMITS.passwordMax) : input.password;
  const user = email.length > LIMITS.emailMax ? null : await deps.users.findByEmail(email);
  let matches = false;
  if (user) matches = await deps.hasher.verify(user.passwordHash, candidate);
  else await deps.hasher.verifyNothing(candidate);
  if (!user || !matches || isTooLong) throw new AppError('AUTH_INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
  // Only someone who knows the password learns that the account is blocked.
  if (user.activation === 'block') throw new AppError('AUTH_ACCOUNT_BLOCKED', MESSAGES.accountBlocked);

  return { token: deps.signToken(claimsFor(user)), user: await loadSessionUser(deps, user) };
}
