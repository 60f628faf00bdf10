import type { ReferralBonusTerms } from '@flatship/proto';
import { getJson } from '../../app/http';

export type { ReferralBonusTerms };

function isTerms(reply: unknown): reply is ReferralBonusTerms {
  if (!reply || typeof reply !== 'object') return false;
  const r = reply as Record<string, unknown>;
  return (
    typeof r.isEnabled === 'boolean' &&
    [r.referrerBonus, r.referredBonus, r.minimumDeposit].every((v) => typeof v === 'number' && Number.isFinite(v))
  );
}

export const referralBonusApi = {
  /** GET /api/payment/referral-bonus: the terms; a reply of another shape reads as no bonus (null). */
  terms: async (): Promise<ReferralBonusTerms | null> => {
    const reply = await getJson<unknown>('payment/referral-bonus');
    return isTerms(reply) ? reply : null;
  },
};
