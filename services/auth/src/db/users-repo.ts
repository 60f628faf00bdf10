import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import type { Activation, Role } from '@flatship/proto';
import { isId } from '@flatship/proto';
import type { InsertUserResult, NewUser, SetReferralCodeResult, Tx, UserRecord, UsersRepo } from '../domain/ports';
import { uniqueViolation } from './pg-errors';

interface UserRow {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  role: Role;
  activation: Activation;
  token_version: number;
  impersonation_version: number;
  referral_code: string;
  referred_by: string | null;
  referred_at: Date | null;
  avatar: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

const toRecord = (r: UserRow): UserRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  passwordHash: r.password_hash,
  role: r.role,
  activation: r.activation,
  tokenVersion: r.token_version,
  impersonationVersion: r.impersonation_version,
  referralCode: r.referral_code,
  referredBy: r.referred_by,
  referredAt: r.referred_at,
  avatar: r.avatar,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deletedAt: r.deleted_at,
});

/** Emails are unique among live users only: a deleted user's email can register again. */
export const EMAIL_UNIQUE = 'users_email_live_key';
export const REFERRAL_CODE_UNIQUE = 'users_referral_code_upper_key';

export function createUsersRepo(db: Knex): UsersRepo {
  const all = (tx?: Tx) => (fromTx(tx) ?? db)<UserRow>('users');
  // A deleted user is, to everything but the export, not there.
  const q = (tx?: Tx) => all(tx).whereNull('deleted_at');
  const first = (rows: UserRow[]) => (rows[0] ? toRecord(rows[0]) : null);
  // Whatever ends a user's sessions also ends the login-as visits they made as an admin: an admin demoted and made
  // admin again, or whose password was reset, does not get their old visits back.
  const bump = (k: Knex | Knex.Transaction) => ({
    token_version: k.raw('token_version + 1'),
    impersonation_version: k.raw('impersonation_version + 1'),
    updated_at: k.fn.now(),
  });

  return {
    async findById(id, tx) {
      if (!isId(id)) return null;
      return first(await q(tx).where({ id }).limit(1));
    },
    async findByIdWithDeleted(id, tx) {
      if (!isId(id)) return null;
      return first(await all(tx).where({ id }).limit(1));
    },
    async findByEmail(email, tx) {
      return first(await q(tx).where({ email }).limit(1));
    },
    async findByReferralCode(code, tx) {
      return first(await q(tx).whereRaw('upper(referral_code) = upper(?)', [code]).limit(1));
    },
    async insert(user: NewUser, tx): Promise<InsertUserResult> {
      // A savepoint (or a transaction of its own) so a unique violation does
      // not poison the caller's transaction and the caller can retry.
      const outer = fromTx(tx) ?? db;
      try {
        const rows = await outer.transaction((sp) =>
          sp<UserRow>('users')
            .insert({
              name: user.name,
              email: user.email,
              password_hash: user.passwordHash,
              role: user.role,
              activation: user.activation,
              referral_code: user.referralCode,
              referred_by: user.referredBy,
              referred_at: user.referredBy ? db.fn.now() : null,
            })
            .returning('*'),
        );
        return { ok: true, user: toRecord(rows[0] as UserRow) };
      } catch (e) {
        const constraint = uniqueViolation(e);
        if (constraint === EMAIL_UNIQUE) return { ok: false, conflict: 'email' };
        if (constraint === REFERRAL_CODE_UNIQUE) return { ok: false, conflict: 'referralCode' };
        throw e;
      }
    },
    async updateName(id, name, tx) {
      if (!isId(id)) return null;
      return first(await q(tx).where({ id }).update({ name, updated_at: db.fn.now() }).returning('*'));
    },
    async updatePassword(id, passwordHash, tx) {
      if (!isId(id)) return null;
      return first(
        await q(tx)
          .where({ id })
          .update({ password_hash: passwordHash, ...bump(db) })
          .returning('*'),
      );
    },
    async setReferredByOnce(id, referrerId, tx) {
      if (!isId(id)) return null;
      return first(
        await q(tx)
          .where({ id })
          .whereNull('referred_by')
          .update({ referred_by: referrerId, referred_at: db.raw('clock_timestamp()'), updated_at: db.fn.now() })
          .returning('*'),
      );
    },
    async changeActivation(id, activation, tx) {
      if (!isId(id)) return null;
      return first(
        await q(tx)
          .where({ id })
          .whereNot({ activation })
          .update({ activation, ...bump(db) })
          .returning('*'),
      );
    },
    async changeRole(id, role, tx) {
      if (!isId(id)) return null;
      return first(
        await q(tx)
          .where({ id })
          .whereNot({ role })
          .update({ role, ...bump(db) })
          .returning('*'),
      );
    },
    async listReferredBy(referrerId, tx) {
      if (!isId(referrerId)) return [];
      const rows = await q(tx)
        .where({ referred_by: referrerId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
      return rows.map(toRecord);
    },
    async hasAdmin(tx) {
      return (await q(tx).where({ role: 'admin' }).first('id')) !== undefined;
    },
    async setReferralCode(id, code, tx): Promise<SetReferralCodeResult | null> {
      if (!isId(id)) return null;
      const outer = fromTx(tx) ?? db;
      try {
        const rows = await outer.transaction((sp) =>
          sp<UserRow>('users')
            .where({ id })
            .whereNull('deleted_at')
            .update({ referral_code: code, updated_at: db.fn.now() })
            .returning('*'),
        );
        return rows[0] ? { ok: true, user: toRecord(rows[0]) } : null;
      } catch (e) {
        if (uniqueViolation(e) === REFERRAL_CODE_UNIQUE) return { ok: false, conflict: 'referralCode' };
        throw e;
      }
    },
    async bumpImpersonationVersion(id, tx) {
      if (!isId(id)) return null;
      return first(
        await q(tx)
          .where({ id })
          .update({ impersonation_version: db.raw('impersonation_version + 1'), updated_at: db.fn.now() })
          .returning('*'),
      );
    },
    async softDelete(id, tx) {
      if (!isId(id)) return null;
      return first(
        await q(tx)
          .where({ id })
          .update({ deleted_at: db.fn.now(), ...bump(db) })
          .returning('*'),
      );
    },
    async exportPage(after, limit, tx) {
      const rows = await all(tx)
        .modify((b) => {
          if (after) b.where('id', '>', after);
        })
        .orderBy('id')
        .limit(limit);
      return rows.map(toRecord);
    },
  };
}
