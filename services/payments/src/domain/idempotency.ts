import { AppError } from '@flatship/kit';
import type { LedgerResult } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { LedgerEntryRecord } from './ports';

/**
 * A key seen before answers with the first result and moves nothing, as long
 * as it names the same movement; the same key for something else is a
 * caller bug that must not pass silently.
 */
export function replay(entry: LedgerEntryRecord, isSameMovement: (entry: LedgerEntryRecord) => boolean): LedgerResult {
  if (!isSameMovement(entry)) throw new AppError('PAYMENTS_IDEMPOTENCY_CONFLICT', MESSAGES.idempotencyConflict);
  return { entryId: entry.id, balanceCents: entry.balanceAfterCents, replayed: true };
}

export const applied = (entry: LedgerEntryRecord): LedgerResult => ({
  entryId: entry.id,
  balanceCents: entry.balanceAfterCents,
  replayed: false,
});
