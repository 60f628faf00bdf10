import type { InternalClient } from '@flatship/kit';
import type { MoneySummariesBody, MoneySummariesReply } from '@flatship/proto';
import type { MoneySummary, MoneySummarySource } from '../domain/ports';

export const MONEY_SUMMARIES_PATH = '/internal/accounts/summaries';
// Stays under the contract's maxItems.
const BATCH = 500;

/** Reads users' money fields from the payments service's internal API. */
export function createPaymentsMoneySummary(client: InternalClient): MoneySummarySource {
  return {
    async get(userIds) {
      const result = new Map<string, MoneySummary>();
      if (userIds.length === 0) return result;
      const ids = [...new Set(userIds)];
      for (let i = 0; i < ids.length; i += BATCH) {
        const body: MoneySummariesBody = { userIds: ids.slice(i, i + BATCH) };
        const reply = await client.request<MoneySummariesReply>('POST', MONEY_SUMMARIES_PATH, { body });
        for (const s of reply.summaries) {
          result.set(s.userId, { balance: s.balance, totalDeposit: s.totalDeposit, totalSpent: s.totalSpent });
        }
      }
      return result;
    },
  };
}
