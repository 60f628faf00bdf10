import { AppError } from '@flatship/kit';
import { centsToDollars, type UserDetailsBody, type UserDetailsReply } from '@flatship/proto';
import { moneyChangeOf, type UsersViewRepo } from '../db/users-view-repo';
import { parseBalanceInput } from './balance-input';
import { MESSAGES } from './messages';
import type { Balances, CallContext, UserDirectory } from './ports';

export interface UpdateUserDetailsDeps {
  users: UserDirectory;
  balances: Balances;
  /** The user table's read model: the new balance is written there before answering (read your writes). */
  view: Pick<UsersViewRepo, 'applyMoney'>;
}

export interface UpdateUserDetailsInput {
  userId: string;
  adminId: string;
  body: UserDetailsBody;
  /** Makes the balance change idempotent: a retry with the same key moves no money again. */
  idempotencyKey: string;
}

/**
 * An admin edits a user's balance and/or referral code. Everything the admin
 * typed is checked before anything is written. The referral code goes first
 * because it is the part that can still be refused (taken); the balance,
 * set last, is idempotent by key, so retrying after a failure is safe.
 */
export async function updateUserDetails(
  deps: UpdateUserDetailsDeps,
  input: UpdateUserDetailsInput,
  ctx: CallContext,
): Promise<UserDetailsReply> {
  const { balance, referralCode } = input.body;
  const balanceCents = balance === undefined || balance === null ? undefined : parseBalanceInput(balance);
  const code = referralCode === undefined || referralCode === null ? undefined : referralCode.trim();
  if (code === '') throw new AppError('VALIDATION_FAILED', MESSAGES.referralCodeRequired);
  if (balanceCents === undefined && code === undefined) {
    throw new AppError('VALIDATION_FAILED', MESSAGES.nothingToUpdate);
  }

  // Payments would happily open an account for any id; only auth knows who exists.
  let user = await deps.users.get(input.userId, ctx);
  if (code !== undefined) user = await deps.users.setReferralCode(user._id, code, ctx);

  const cents =
    balanceCents === undefined
      ? await deps.balances.get(user._id, ctx)
      : await deps.balances.set(
          { userId: user._id, balanceCents, adminId: input.adminId, key: input.idempotencyKey },
          ctx,
        );
  if (balanceCents !== undefined) {
    // The table is read again the moment the admin's save is answered; account.changed reaches the read model
    // a little later, so the row would still show the old balance. The figures are applied here under their
    // ledger seq, so the event, when it comes, changes nothing, and an older figure never overwrites a newer.
    const summaries = await deps.balances.summaries([user._id], ctx);
    await deps.view.applyMoney(summaries.map(moneyChangeOf));
  }
  return {
    message: MESSAGES.detailsUpdated,
    user: { _id: user._id, balance: centsToDollars(cents), referralCode: user.referralCode },
  };
}
