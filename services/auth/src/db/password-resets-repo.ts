import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import type { PasswordResetsRepo, Tx } from '../domain/ports';

interface ResetRow {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export function createPasswordResetsRepo(db: Knex): PasswordResetsRepo {
  const q = (tx?: Tx) => (fromTx(tx) ?? db)<ResetRow>('password_resets');
  return {
    async insert(reset, tx) {
      await q(tx).insert({ user_id: reset.userId, token_hash: reset.tokenHash, expires_at: reset.expiresAt });
    },
    async consume(tokenHash, now, tx) {
      // One statement: two tabs submitting the same link cannot both use it.
      const rows = await q(tx)
        .where({ token_hash: tokenHash })
        .whereNull('used_at')
        .where('expires_at', '>', now)
        .update({ used_at: now })
        .returning('user_id');
      return rows[0]?.user_id ?? null;
    },
    async retireAll(userId, now, tx) {
      await q(tx).where({ user_id: userId }).whereNull('used_at').update({ used_at: now });
    },
  };
}
