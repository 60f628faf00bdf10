import { AppError } from '@flatship/kit';
import type { SessionUser } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import { MESSAGES } from './messages';
import type {
  MoneySummarySource,
  PasswordHasher,
  PublishUserChanged,
  SignToken,
  Transactor,
  UserRecord,
  UsersRepo,
} from './ports';
import { assertValidName, assertValidPassword } from './rules';
import { claimsFor, loadSessionUser, toUserChangedEvent } from './session-user';

export interface UpdateAccountDeps {
  users: UsersRepo;
  hasher: PasswordHasher;
  transactor: Transactor;
  publishUserChanged: PublishUserChanged;
  signToken: SignToken;
  money: MoneySummarySource;
}

export interface UpdateAccountInput {
  name: string;
  currentPassword?: string;
  newPassword?: string;
}

/**
 * The signed-in user's own name and password (the email cannot change). A
 * new password revokes every other session, so the caller gets a fresh token.
 */
export async function updateAccount(
  deps: UpdateAccountDeps,
  userId: string,
  input: UpdateAccountInput,
): Promise<{ token: string; user: SessionUser }> {
  const name = input.name.trim();
  assertValidName(name);
  // The form sends a blank password for "unchanged".
  const newPassword = input.newPassword?.trim() ? input.newPassword : null;
  const user = await findUserOrFail(deps.users, userId);

  let updated: UserRecord;
  if (newPassword === null) {
    if (name === user.name) {
      updated = user;
    } else {
      // The name shows in the admin user table: announced, though no token changes.
      updated = await deps.transactor.run(async (tx) => {
        const renamed = await deps.users.updateName(userId, name, tx);
        if (!renamed) throw new AppError('USER_NOT_FOUND', MESSAGES.userNotFound);
        await deps.publishUserChanged(tx, toUserChangedEvent(renamed));
        return renamed;
      });
    }
  } else {
    if (!input.currentPassword) {
      throw new AppError('VALIDATION_FAILED', MESSAGES.currentPasswordRequired);
    }
    assertValidPassword(newPassword);
    if (!(await deps.hasher.verify(user.passwordHash, input.currentPassword))) {
      throw new AppError('AUTH_WRONG_PASSWORD', MESSAGES.wrongCurrentPassword);
    }
    const passwordHash = await deps.hasher.hash(newPassword);
    updated = await deps.transactor.run(async (tx) => {
      await deps.users.updateName(userId, name, tx);
      const changed = await deps.users.updatePassword(userId, passwordHash, tx);
      if (!changed) throw new AppError('USER_NOT_FOUND', MESSAGES.userNotFound);
      await deps.publishUserChanged(tx, toUserChangedEvent(changed));
      return changed;
    });
  }
  return { token: deps.signToken(claimsFor(updated)), user: await loadSessionUser(deps, updated) };
}
