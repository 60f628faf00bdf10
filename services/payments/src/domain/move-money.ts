import type { LedgerResult } from '@flatship/proto';
import { applied, replay } from './idempotency';
import type { LedgerEntryRecord, LedgerRepo, NewLedgerEntry, Transactor, Tx } from './ports';

export interface MoveMoneyDeps {
  ledger: LedgerRepo;
  transactor: Transactor;
}

export interface Movement {
  userId: string;
  key: string;
  /** Recognises an earlier entry under the same key as this very movement. */
  isSameMovement(entry: LedgerEntryRecord): boolean;
  /**
   * Decides, with the account locked, what to append (or null for nothing);
   * throws to refuse. Runs only when the key is new.
   */
  plan(balanceCents: number, tx: Tx): Promise<NewLedgerEntry | null>;
  /** The answer when the plan appends nothing. */
  nothing?(balanceCents: number): LedgerResult;
}

/**
 * The one path every movement of money takes: in one transaction, lock the
 * user's account, answer a known key with its first result, otherwise plan
 * and append the entry together with the new balance. Given `outer`, it
 * runs in that transaction instead of its own.
 */
export async function moveMoney(deps: MoveMoneyDeps, movement: Movement, outer?: Tx): Promise<LedgerResult> {
  // Inside a caller's transaction the movement commits (or not) together with the caller's other writes.
  const run = <T>(fn: (tx: Tx) => Promise<T>) => (outer ? fn(outer) : deps.transactor.run(fn));
  return run(async (tx) => {
    const known = await deps.ledger.findByKey(movement.key, tx);
    if (known) return replay(known, movement.isSameMovement);

    const balance = await deps.ledger.lockAccount(movement.userId, tx);
    // A call with the same key may have committed while this one waited for the lock.
    const raced = await deps.ledger.findByKey(movement.key, tx);
    if (raced) return replay(raced, movement.isSameMovement);

    const entry = await movement.plan(balance, tx);
    if (!entry)
      return movement.nothing ? movement.nothing(balance) : { entryId: null, balanceCents: balance, replayed: false };

    const result = await deps.ledger.append(entry, tx);
    if (result.ok) return applied(result.entry);
    // Only a concurrent call for another account can still hold the key by now; its entry has committed.
    const winner = await deps.ledger.findByKey(movement.key, tx);
    if (!winner) throw new Error(`idempotency key ${movement.key} is taken but its entry is not visible`);
    return replay(winner, movement.isSameMovement);
  });
}
