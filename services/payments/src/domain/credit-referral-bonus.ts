import {
  type DepositSettledEvent,
  REFERRAL_BONUS_SIDES,
  type ReferralBonusSide,
  type ReferralBonusWithheldReason,
  type ReferralParty,
} from '@flatship/proto';
import { moveMoney } from './move-money';
import type {
  Clock,
  DomainLogger,
  LedgerRepo,
  ReferralBonusRepo,
  ReferralBonusSettings,
  ReferralDirectory,
  Transactor,
} from './ports';
import { REFERRAL_BONUS_MEMO } from './referral-bonus-texts';
import { depositKey } from './sync-deposit';

export interface CreditReferralBonusDeps {
  ledger: LedgerRepo;
  transactor: Transactor;
  bonuses: ReferralBonusRepo;
  referrals: ReferralDirectory;
  logger: DomainLogger;
  clock: Clock;
}

/** The ledger key of one side's bonus: one per referred user and side, for good. */
export const referralBonusKey = (referredUserId: string, side: ReferralBonusSide) =>
  `referral-bonus:${referredUserId}:${side}`;

export const bonusCentsOf = (settings: ReferralBonusSettings, side: ReferralBonusSide): number =>
  side === 'referrer' ? settings.referrerBonusCents : settings.referredBonusCents;

/** Both amounts 0 is the program switched off. */
export const isProgramOn = (settings: ReferralBonusSettings): boolean =>
  settings.referrerBonusCents > 0 || settings.referredBonusCents > 0;

export type ReferralBonusOutcome =
  | 'off'
  | 'below_minimum'
  /** The user had deposited before: only the first deposit can bring a bonus. */
  | 'not_first_deposit'
  | 'no_referrer'
  /** The code was applied after the deposit settled: the deposit was not made as someone's referral. */
  | 'referred_after_deposit'
  | 'decided';

export type SideOutcome = 'credited' | 'withheld' | 'already_decided' | 'no_bonus';

/** Why a party gets nothing: blocked or deleted by the time their bonus is decided. */
function withheldReason(party: ReferralParty): ReferralBonusWithheldReason | null {
  if (party.deleted) return 'deleted';
  return party.activation === 'block' ? 'blocked' : null;
}

/**
 * Acts on a settled deposit: when it is the user's first deposit, at least the minimum, and the user had taken
 * someone's referral code before it settled, each side with a bonus set is decided once and for all, with the settings in force now:
 * credited to that side's balance (a `referral_bonus` ledger entry), or withheld when that side's account is blocked
 * or deleted. Each side is its own transaction: the decision row (primary key: referred user and side) and the
 * ledger entry (idempotency key `referral-bonus:{user}:{side}`) commit together, so a redelivered event, two
 * deliveries at once or a crash between the two sides never pays a side twice, and never loses one: the event is
 * handled again until it has been handled whole.
 */
export async function creditReferralBonus(
  deps: CreditReferralBonusDeps,
  event: DepositSettledEvent,
): Promise<{ outcome: ReferralBonusOutcome; sides: Partial<Record<ReferralBonusSide, SideOutcome>> }> {
  const settings = await deps.bonuses.getSettings();
  if (!isProgramOn(settings)) return { outcome: 'off', sides: {} };
  if (event.amountCents < settings.minimumDepositCents) return { outcome: 'below_minimum', sides: {} };
  // The ledger, not the order events arrive in, says which deposit came first.
  const firstKey = await deps.ledger.firstDepositKey(event.userId);
  if (firstKey !== depositKey(event.invoiceId)) return { outcome: 'not_first_deposit', sides: {} };
  const standing = await deps.referrals.standing(event.userId);
  if (!standing?.referrer) return { outcome: 'no_referrer', sides: {} };
  // Who referred the user when the deposit settled, not when this runs: a code applied in between brings nothing.
  if (standing.referredAt && Date.parse(standing.referredAt) >= Date.parse(event.settledAt)) {
    return { outcome: 'referred_after_deposit', sides: {} };
  }

  const sides: Partial<Record<ReferralBonusSide, SideOutcome>> = {};
  for (const side of REFERRAL_BONUS_SIDES) {
    const amountCents = bonusCentsOf(settings, side);
    if (amountCents === 0) {
      sides[side] = 'no_bonus';
      continue;
    }
    const beneficiary = side === 'referrer' ? standing.referrer : standing.user;
    sides[side] = await decideSide(deps, { event, side, amountCents, beneficiary });
  }
  deps.logger.info({ userId: event.userId, invoiceId: event.invoiceId, sides }, 'referral bonus decided');
  return { outcome: 'decided', sides };
}

async function decideSide(
  deps: CreditReferralBonusDeps,
  d: { event: DepositSettledEvent; side: ReferralBonusSide; amountCents: number; beneficiary: ReferralParty },
): Promise<SideOutcome> {
  const referredUserId = d.event.userId;
  const reason = withheldReason(d.beneficiary);
  return deps.transactor.run(async (tx) => {
    const claimed = await deps.bonuses.claim(
      {
        referredUserId,
        side: d.side,
        beneficiaryId: d.beneficiary.id,
        status: reason ? 'withheld' : 'credited',
        reason,
        amountCents: d.amountCents,
        invoiceId: d.event.invoiceId,
      },
      deps.clock.now(),
      tx,
    );
    if (!claimed) return 'already_decided' as const;
    if (reason) return 'withheld' as const;
    const key = referralBonusKey(referredUserId, d.side);
    const result = await moveMoney(
      deps,
      {
        userId: d.beneficiary.id,
        key,
        isSameMovement: (e) =>
          e.kind === 'referral_bonus' && e.userId === d.beneficiary.id && e.amountCents === d.amountCents,
        plan: async (balance) => ({
          userId: d.beneficiary.id,
          kind: 'referral_bonus',
          amountCents: d.amountCents,
          balanceAfterCents: balance + d.amountCents,
          key,
          reference: referredUserId,
          memo: REFERRAL_BONUS_MEMO[d.side],
        }),
      },
      tx,
    );
    if (!result.entryId) throw new Error(`referral bonus ${key} appended no ledger entry`);
    await deps.bonuses.setLedgerEntry(referredUserId, d.side, result.entryId, tx);
    return 'credited' as const;
  });
}
