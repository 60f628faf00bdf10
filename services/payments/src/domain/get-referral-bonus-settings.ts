import { centsToDollars, type InternalReferralBonusSettings, type ReferralBonusTerms } from '@flatship/proto';
import { isProgramOn } from './credit-referral-bonus';
import type { ReferralBonusRepo, ReferralBonusSettings } from './ports';

export const toInternalSettings = (s: ReferralBonusSettings): InternalReferralBonusSettings => ({
  referrerBonusCents: s.referrerBonusCents,
  referredBonusCents: s.referredBonusCents,
  minimumDepositCents: s.minimumDepositCents,
  updatedAt: s.updatedAt ? s.updatedAt.toISOString() : null,
  updatedBy: s.updatedBy,
});

/** The settings for the admin area, with who changed them last. */
export async function getReferralBonusSettings(deps: {
  bonuses: ReferralBonusRepo;
}): Promise<InternalReferralBonusSettings> {
  return toInternalSettings(await deps.bonuses.getSettings());
}

/** What onboarding tells a new user, in dollars; with the program off the amounts are 0. */
export async function getReferralBonusTerms(deps: { bonuses: ReferralBonusRepo }): Promise<ReferralBonusTerms> {
  const s = await deps.bonuses.getSettings();
  return {
    isEnabled: isProgramOn(s),
    referrerBonus: centsToDollars(s.referrerBonusCents),
    referredBonus: centsToDollars(s.referredBonusCents),
    minimumDeposit: centsToDollars(s.minimumDepositCents),
  };
}
