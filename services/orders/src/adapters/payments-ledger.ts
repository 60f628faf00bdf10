import type { InternalClient } from '@flatship/kit';
import type { ChargeBody, LedgerResult, RefundBody } from '@flatship/proto';
import type { LedgerPort } from '../domain/ports';

/** The payments ledger over internal HTTP; both calls are idempotent by key on the payments side. */
export function createPaymentsLedger(client: InternalClient): LedgerPort {
  return {
    async charge(req) {
      const body: ChargeBody = req;
      return client.request<LedgerResult>('POST', '/internal/ledger/charge', { body });
    },
    async refund(req) {
      const body: RefundBody = req;
      return client.request<LedgerResult>('POST', '/internal/ledger/refund', { body });
    },
  };
}
