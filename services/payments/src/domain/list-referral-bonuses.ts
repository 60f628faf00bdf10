import {
  centsToDollars,
  REFERRAL_BONUS_SIDES,
  type ReferralBonusesReply,
  type ReferralBonusSide,
  type ReferralBonusSideState,
} from '@flatship/proto';
import { bonusCentsOf, isProgramOn } from './credit-referral-bonus';
import type { LedgerRepo, ReferralBonusDecision, ReferralBonusRepo } from './ports';

/**
 * The bonus of each referred user, both sides, as the Invites page shows it. A decided side is `credited` or
 * `withheld`. An undecided one is `waiting` while the user has not deposited and the current settings give that
 * side a bonus (with the amount they promise), else `none`: the first deposit has been made and brought nothing.
 */
export async function listReferralBonuses(
  deps: { bonuses: ReferralBonusRepo; ledger: LedgerRepo },
  referredUserIds: string[],
): Promise<ReferralBonusesReply['bonuses']> {
  const ids = [...new Set(referredUserIds)];
  if (ids.length === 0) return [];
  const [decisions, settings, totals] = await Promise.all([
    deps.bonuses.listForReferred(ids),
    deps.bonuses.getSettings(),
    deps.ledger.totals(ids),
  ]);
  const decided = new Map<string, ReferralBonusDecision>();
  for (const d of decisions) decided.set(`${d.referredUserId}:${d.side}`, d);

  const stateOf = (userId: string, side: ReferralBonusSide): ReferralBonusSideState => {
    const d = decided.get(`${userId}:${side}`);
    if (d?.status === 'credited') {
      return { status: 'credited', amount: centsToDollars(d.amountCents), creditedAt: d.decidedAt.toISOString() };
    }
    if (d)
      return { status: 'withheld', amount: centsToDollars(d.amountCents), ...(d.reason ? { reason: d.reason } : {}) };
    const hasDeposited = (totals.get(userId)?.depositCents ?? 0) > 0;
    const promised = bonusCentsOf(settings, side);
    if (!hasDeposited && isProgramOn(settings) && promised > 0) {
      return { status: 'waiting', amount: centsToDollars(promised) };
    }
    return { status: 'none', amount: 0 };
  };

  return ids.map((id) => {
    const [referrer, referred] = REFERRAL_BONUS_SIDES.map((side) => stateOf(id, side)) as [
      ReferralBonusSideState,
      ReferralBonusSideState,
    ];
    return { referredUserId: id, referrer, referred };
  });
}
