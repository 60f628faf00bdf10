import type { InternalClient } from '@flatship/kit';
import type { LedgerResult, MoneySummariesBody, MoneySummariesReply, SetBalanceBody } from '@flatship/proto';
import { dollarsToCents } from '@flatship/proto';
import type { Balances } from '../domain/ports';

/** Balances through payments' internal API. */
export function createPaymentsBalances(payments: InternalClient): Balances {
  return {
    async set(input, ctx) {
      const body: SetBalanceBody = input;
      const result = await payments.request<LedgerResult>('POST', '/internal/ledger/set-balance', {
        body,
        requestId: ctx.requestId,
      });
      return result.balanceCents;
    },
    async get(userId, ctx) {
      const summaries = await this.summaries([userId], ctx);
      return dollarsToCents(summaries.find((s) => s.userId === userId)?.balance ?? 0);
    },
    async summaries(userIds, ctx) {
      const body: MoneySummariesBody = { userIds };
      const reply = await payments.request<MoneySummariesReply>('POST', '/internal/accounts/summaries', {
        body,
        requestId: ctx.requestId,
      });
      return reply.summaries;
    },
  };
}
