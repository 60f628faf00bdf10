import type { ReferralBonusSide } from '@flatship/proto';

/** How a referral bonus reads in the deposit history and the ledger (its memo). */
export const REFERRAL_BONUS_LABEL = 'Referral bonus';

export const REFERRAL_BONUS_MEMO: Record<ReferralBonusSide, string> = {
  referrer: 'Referral bonus: someone you invited made their first deposit',
  referred: 'Referral bonus: you joined with a referral code',
};
