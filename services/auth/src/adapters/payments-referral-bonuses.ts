import type { InternalClient } from '@flatship/kit';
import type { ReferralBonusesBody, ReferralBonusesReply, ReferralBonusState } from '@flatship/proto';
import type { ReferralBonusSource } from '../domain/ports';

export const REFERRAL_BONUSES_PATH = '/internal/referral-bonuses';
// Stays under the contract's maxItems.
const BATCH = 500;

/** Reads the referral bonus of referred users from the payments service's internal API. */
export function createPaymentsReferralBonuses(client: InternalClient): ReferralBonusSource {
  return {
    async get(referredUserIds) {
      const result = new Map<string, ReferralBonusState>();
      const ids = [...new Set(referredUserIds)];
      for (let i = 0; i < ids.length; i += BATCH) {
        const body: ReferralBonusesBody = { referredUserIds: ids.slice(i, i + BATCH) };
        const reply = await client.request<ReferralBonusesReply>('POST', REFERRAL_BONUSES_PATH, { body });
        for (const { referredUserId, referrer, referred } of reply.bonuses) {
          result.set(referredUserId, { referrer, referred });
        }
      }
      return result;
    },
  };
}

/** Without a payments service there are no bonuses to show: the Invites page leaves the column empty. */
export function createNoReferralBonuses(): ReferralBonusSource {
  return { get: async () => new Map() };
}
