import { AppError } from '@flatship/kit';
import type { SessionUser } from '@flatship/proto';
import { findReferrerOrFail } from './find-referrer';
import { findUserOrFail } from './find-user';
import { MESSAGES } from './messages';
import type { MoneySummarySource, PublishUserChanged, SignToken, Transactor, UsersRepo } from './ports';
import { normaliseReferralCode } from './rules';
import { claimsFor, loadSessionUser, toUserChangedEvent } from './session-user';

export interface ApplyReferralCodeDeps {
  users: UsersRepo;
  signToken: SignToken;
  money: MoneySummarySource;
  transactor: Transactor;
  publishUserChanged: PublishUserChanged;
}

/** Links a signed-in user to the friend who invited them; only once per account. */
export async function applyReferralCode(
  deps: ApplyReferralCodeDeps,
  userId: string,
  referralCode: string,
): Promise<{ token: string; user: SessionUser }> {
  const code = normaliseReferralCode(referralCode);
  if (!code) throw new AppError('VALIDATION_FAILED', MESSAGES.referralCodeRequired);
  const user = await findUserOrFail(deps.users, userId);
  const referrer = await findReferrerOrFail(deps.users, code);
  if (referrer.id === user.id) throw new AppError('REFERRAL_OWN_CODE', MESSAGES.referralOwnCode);
  const alreadyApplied = new AppError('REFERRAL_ALREADY_APPLIED', MESSAGES.referralAlreadyApplied);
  if (user.referredBy) throw alreadyApplied;
  // The conditional update settles two applies racing each other: only the first sets a referrer.
  const updated = await deps.transactor.run(async (tx) => {
    const linked = await deps.users.setReferredByOnce(user.id, referrer.id, tx);
    if (linked) await deps.publishUserChanged(tx, toUserChangedEvent(linked));
    return linked;
  });
  if (!updated) throw alreadyApplied;
  return { token: deps.signToken(claimsFor(updated)), user: await loadSessionUser(deps, updated) };
}
