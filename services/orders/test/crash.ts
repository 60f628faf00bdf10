import type { Knex } from '@flatship/kit';
import { afterEach } from 'vitest';
import { labelLockHoldersSql } from '../src/db/purchase-locks';
import type { CarrierPort, LedgerPort } from '../src/domain/ports';

/**
 * A call that never comes back, standing in for a process that died while
 * making it. `release` lets the dead request finish (failing, or calling
 * through) so that the test can close its pools; the process it stands for
 * would never get that far.
 */
export interface Hang {
  release(how: 'fail' | 'pass'): Promise<void>;
}

function hang<T>(callThrough: () => Promise<T>): { hang: Hang; wait: Promise<T> } {
  let settle!: (how: 'fail' | 'pass') => void;
  const wait = new Promise<T>((resolve, reject) => {
    settle = (how) => {
      if (how === 'pass') callThrough().then(resolve, reject);
      else reject(new Error('socket hang up'));
    };
  });
  return {
    hang: {
      async release(how) {
        settle(how);
        await wait.catch(() => {});
      },
    },
    wait,
  };
}

export type LedgerCut = 'before-charge' | 'after-charge';

/**
 * The ledger client as orders uses it, except that the next charge after
 * `cut()` never answers: before it reaches payments (nothing taken) or after
 * payments took the money (the answer lost).
 */
export function createCuttableLedger() {
  let armed: { when: LedgerCut; onHang: (h: Hang) => void } | null = null;
  return {
    wrap(real: LedgerPort): LedgerPort {
      return {
        async charge(req) {
          const cut = armed;
          armed = null;
          if (cut?.when === 'before-charge') {
            const h = hang(() => real.charge(req));
            cut.onHang(h.hang);
            return h.wait;
          }
          const result = await real.charge(req);
          if (cut?.when === 'after-charge') {
            const h = hang(async () => result);
            cut.onHang(h.hang);
            return h.wait;
          }
          return result;
        },
        refund: (req) => real.refund(req),
      };
    },
    /** The next charge hangs; resolves with the hang once a request reaches it. */
    cut(when: LedgerCut): Promise<Hang> {
      return new Promise((resolve) => {
        armed = { when, onHang: resolve };
      });
    },
  };
}

/** A carrier whose next purchase after `cut()` never answers (and buys nothing). */
export function createCuttableCarrier(real: CarrierPort) {
  let armed: ((h: Hang) => void) | null = null;
  return {
    carrier: {
      purchaseLabel(req) {
        const onHang = armed;
        armed = null;
        if (!onHang) return real.purchaseLabel(req);
        const h = hang(() => real.purchaseLabel(req));
        onHang(h.hang);
        return h.wait;
      },
    } satisfies CarrierPort,
    cut(): Promise<Hang> {
      return new Promise((resolve) => {
        armed = resolve;
      });
    },
  };
}

/**
 * What the database sees when the process working on a row dies: the
 * connection whose transaction has the row locked drops, so that transaction
 * rolls back and lets go of its locks. (A row lock leaves the locker's
 * transaction id in the row's xmax.) Nothing happens if no one holds the row.
 */
export async function crashHolderOf(db: Knex, table: string, id: string): Promise<void> {
  await db.raw(
    `select pg_terminate_backend(pid, 5000) from pg_stat_activity
      where pid <> pg_backend_pid() and backend_xid = (select xmax from ?? where id = ?)`,
    [table, id],
  );
}

/**
 * What the database sees when the process buying a single label dies: the
 * connection holding the purchase's advisory lock drops, and the lock with it.
 * Waits until that backend is gone. Nothing happens if no one holds the lock.
 */
export async function crashLabelLockHolder(db: Knex, labelId: string): Promise<void> {
  await db.raw(`select pg_terminate_backend(pid, 5000) from (${labelLockHoldersSql('?')}) holders`, [labelId]);
}

/**
 * Requests standing for processes that died, in the test that made them; let
 * go after each test (failing or calling through) so nothing is left open.
 */
export function deadRequestsReleasedAfterEach() {
  const dead: { hang: Hang; how: 'fail' | 'pass'; request: Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const d of dead.splice(0)) {
      await d.hang.release(d.how);
      await d.request;
    }
  });
  return dead;
}
