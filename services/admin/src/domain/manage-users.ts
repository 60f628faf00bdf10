import { AppError } from '@flatship/kit';
import type {
  Activation,
  AdminUserChangeReply,
  AdminUserDeleteReply,
  InternalUser,
  LoginAsReply,
  Role,
  SessionUser,
} from '@flatship/proto';
import type { UsersViewRepo } from '../db/users-view-repo';
import { MESSAGES } from './messages';
import type { Balances, CallContext, UserDirectory } from './ports';

export interface ManageUsersDeps {
  users: UserDirectory;
  balances: Balances;
  /** The admin user table; takes each change at once so the next page shows it. */
  view: Pick<UsersViewRepo, 'setAccess' | 'markDeleted'>;
}

/** The admin acting on someone, and on whom. */
export interface Acting {
  adminId: string;
  userId: string;
}

/** The user as the SPA shows them, money from payments. */
async function withMoney(deps: ManageUsersDeps, user: InternalUser, ctx: CallContext): Promise<SessionUser> {
  const [money] = await deps.balances.summaries([user._id], ctx);
  return {
    ...user,
    balance: money?.balance ?? 0,
    totalDeposit: money?.totalDeposit ?? 0,
    totalSpent: money?.totalSpent ?? 0,
  };
}

/** Gives a user another role; their tokens stop at once (auth bumps the token version). */
export async function changeUserRole(
  deps: ManageUsersDeps,
  { adminId, userId }: Acting,
  role: Role,
  ctx: CallContext,
): Promise<AdminUserChangeReply> {
  // Demoting oneself would lock the acting admin out of the page they are on.
  if (userId === adminId && role !== 'admin') throw new AppError('ADMIN_SELF_CHANGE', MESSAGES.ownRole);
  const user = await deps.users.setRole(userId, role, ctx);
  await deps.view.setAccess(user._id, { role: user.user_role });
  return { message: MESSAGES.roleUpdated, user: await withMoney(deps, user, ctx) };
}

/** Allows or blocks a user; blocking ends every session they have at once. */
export async function changeUserAccess(
  deps: ManageUsersDeps,
  { adminId, userId }: Acting,
  activation: Activation,
  ctx: CallContext,
): Promise<AdminUserChangeReply> {
  if (userId === adminId && activation === 'block') throw new AppError('ADMIN_SELF_CHANGE', MESSAGES.ownAccess);
  const user = await deps.users.setActivation(userId, activation, ctx);
  await deps.view.setAccess(user._id, { activation: user.activation });
  return { message: MESSAGES.accessUpdated, user: await withMoney(deps, user, ctx) };
}

/**
 * Deletes a user: they cannot sign in any more and their email can register again. Their orders, ledger
 * entries and label files are kept for the books.
 */
export async function deleteUser(
  deps: ManageUsersDeps,
  { adminId, userId }: Acting,
  ctx: CallContext,
): Promise<AdminUserDeleteReply> {
  if (userId === adminId) throw new AppError('ADMIN_SELF_CHANGE', MESSAGES.ownDelete);
  await deps.users.delete(userId, ctx);
  await deps.view.markDeleted(userId);
  return { message: MESSAGES.userDeleted };
}

/**
 * A token for the user that names the admin, so what the admin does as them is told apart (and audited).
 * Auth refuses a blocked user and an admin; an unknown or deleted user is USER_NOT_FOUND.
 */
export async function loginAsUser(deps: ManageUsersDeps, acting: Acting, ctx: CallContext): Promise<LoginAsReply> {
  if (acting.userId === acting.adminId) throw new AppError('ADMIN_SELF_CHANGE', MESSAGES.ownLoginAs);
  const { token, user } = await deps.users.loginAsToken(acting.userId, acting.adminId, ctx);
  return { message: MESSAGES.loggedInAs(user.name), token, user: await withMoney(deps, user, ctx) };
}
