import type { LedgerEntry } from '@flatship/proto';
import type { LedgerRepo } from './ports';
import { isUserId } from './rules';

export const LEDGER_LIST_MAX = 500;

/** A user's movements of money, newest first (support and tests). */
export async function listLedgerEntries(
  deps: { ledger: LedgerRepo },
  userId: string,
  limit = LEDGER_LIST_MAX,
): Promise<LedgerEntry[]> {
  if (!isUserId(userId)) return [];
  const rows = await deps.ledger.listEntries(userId, Math.min(limit, LEDGER_LIST_MAX));
  return rows.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() }));
}
