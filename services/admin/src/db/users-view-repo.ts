import type { Knex } from '@flatship/kit';
import {
  type AdminUserRow,
  type AdminUserSort,
  centsToDollars,
  dollarsToCents,
  type ExportedUser,
  type MoneySummary,
  type UserChangedEvent,
} from '@flatship/proto';

interface ViewRow {
  id: string;
  name: string;
  email: string;
  avatar: string;
  role: AdminUserRow['user_role'];
  activation: AdminUserRow['activation'];
  referral_code: string;
  referred_by: string | null;
  created_at: Date;
  balance_cents: string;
  total_deposit_cents: string;
  total_spent_cents: string;
}

const toRow = (r: ViewRow): AdminUserRow => ({
  _id: r.id,
  name: r.name,
  email: r.email,
  avatar: r.avatar,
  user_role: r.role,
  activation: r.activation,
  referralCode: r.referral_code,
  referredBy: r.referred_by,
  balance: centsToDollars(Number(r.balance_cents)),
  totalDeposit: centsToDollars(Number(r.total_deposit_cents)),
  totalSpent: centsToDollars(Number(r.total_spent_cents)),
  createdAt: r.created_at.toISOString(),
});

/** The SQL each sort column orders by; each has an index `(expr, id)` over listed users. */
const SORT_SQL: Record<AdminUserSort, string> = {
  name: 'lower(name)',
  email: 'email',
  user_role: 'role',
  activation: 'activation',
  referralCode: 'upper(referral_code)',
  totalDeposit: 'total_deposit_cents',
  totalSpent: 'total_spent_cents',
  balance: 'balance_cents',
  createdAt: 'created_at',
};

/** Listed: not deleted, and auth's profile has arrived. */
const LISTED = 'deleted_at is null and profile_updated_at is not null';

export interface UsersPageQuery {
  page: number;
  limit: number;
  search: string;
  sort: AdminUserSort;
  order: 'asc' | 'desc';
}

export interface UsersPage {
  users: AdminUserRow[];
  totalCount: number;
  totals: { balanceCents: number; totalDepositCents: number; totalSpentCents: number };
}

/** A profile as auth tells it, from `user.changed` or the export. */
export interface ProfileChange {
  id: string;
  name: string;
  email: string;
  avatar: string;
  role: string;
  activation: string;
  referralCode: string;
  referredBy: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface MoneyChange {
  userId: string;
  balanceCents: number;
  totalDepositCents: number;
  totalSpentCents: number;
  seq: number;
}

export interface UsersViewRepo {
  page(q: UsersPageQuery): Promise<UsersPage>;
  /** Keeps, per user, the profile with the latest `updatedAt`: an older one arriving late changes nothing. */
  applyProfiles(changes: ProfileChange[]): Promise<void>;
  /** Keeps, per user, the money with the highest `seq`. */
  applyMoney(changes: MoneyChange[]): Promise<void>;
  /**
   * Role and access of a user already known: a change an admin just made here (so the next page shows it before
   * auth's event arrives), or an event from before profiles were announced.
   */
  setAccess(id: string, fields: { role?: string; activation?: string }): Promise<void>;
  markDeleted(id: string): Promise<void>;
  /** When the seed last completed; null when it never has. */
  seededAt(): Promise<Date | null>;
  markSeeded(): Promise<void>;
}

/** Escapes LIKE's wildcards so a search for "50%" or "a_b" means those characters. */
const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function profileFromEvent(e: UserChangedEvent): ProfileChange | null {
  if (e.name === undefined || e.email === undefined || e.updatedAt === undefined) return null;
  return {
    id: e.id,
    name: e.name,
    email: e.email,
    avatar: e.avatar ?? '',
    role: e.role,
    activation: e.activation,
    referralCode: e.referralCode ?? '',
    referredBy: e.referredBy ?? null,
    createdAt: e.createdAt ?? e.updatedAt,
    updatedAt: e.updatedAt,
    deletedAt: e.deleted ? e.updatedAt : null,
  };
}

/** Payments' figures for a user (dollars on the wire) as the table keeps them, under their ledger seq. */
export function moneyChangeOf(s: MoneySummary): MoneyChange {
  return {
    userId: s.userId,
    balanceCents: dollarsToCents(s.balance),
    totalDepositCents: dollarsToCents(s.totalDeposit),
    totalSpentCents: dollarsToCents(s.totalSpent),
    seq: s.seq ?? 0,
  };
}

export function profileFromExport(u: ExportedUser): ProfileChange {
  return {
    id: u._id,
    name: u.name,
    email: u.email,
    avatar: u.avatar,
    role: u.user_role,
    activation: u.activation,
    referralCode: u.referralCode,
    referredBy: u.referredBy,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
    deletedAt: u.deletedAt,
  };
}

export function createUsersViewRepo(db: Knex): UsersViewRepo {
  return {
    async page(q) {
      const search = q.search.trim();
      const filter = search ? `${LISTED} and (name ilike ? or email ilike ? or referral_code ilike ?)` : LISTED;
      const filterArgs = search ? [likeContains(search), likeContains(search), likeContains(search)] : [];
      const dir = q.order === 'asc' ? 'asc' : 'desc';
      const orderBy = `${SORT_SQL[q.sort]} ${dir}, id ${dir}`;
      // One statement: the totals over every matching user, and the page itself read along the sort's index.
      const result = await db.raw(
        `select t.total_count, t.balance_sum, t.deposit_sum, t.spent_sum, p.*
         from (select count(*) as total_count,
                      coalesce(sum(balance_cents), 0) as balance_sum,
                      coalesce(sum(total_deposit_cents), 0) as deposit_sum,
                      coalesce(sum(total_spent_cents), 0) as spent_sum
               from users_view where ${filter}) t
         left join lateral (
           select * from users_view where ${filter} order by ${orderBy} limit ? offset ?
         ) p on true`,
        [...filterArgs, ...filterArgs, q.limit, (q.page - 1) * q.limit],
      );
      const rows = result.rows as (ViewRow & {
        total_count: string;
        balance_sum: string;
        deposit_sum: string;
        spent_sum: string;
      })[];
      const first = rows[0];
      return {
        users: rows.filter((r) => r.id !== null).map(toRow),
        totalCount: Number(first?.total_count ?? 0),
        totals: {
          balanceCents: Number(first?.balance_sum ?? 0),
          totalDepositCents: Number(first?.deposit_sum ?? 0),
          totalSpentCents: Number(first?.spent_sum ?? 0),
        },
      };
    },

    async applyProfiles(changes) {
      if (changes.length === 0) return;
      const values = changes.map((c) => [
        c.id,
        c.name,
        c.email,
        c.avatar,
        c.role,
        c.activation,
        c.referralCode,
        c.referredBy,
        c.createdAt,
        c.updatedAt,
        c.deletedAt,
      ]);
      await db.raw(
        `insert into users_view
           (id, name, email, avatar, role, activation, referral_code, referred_by, created_at, profile_updated_at, deleted_at)
         values ${values.map(() => '(?::uuid, ?, ?, ?, ?, ?, ?, ?::uuid, ?::timestamptz, ?::timestamptz, ?::timestamptz)').join(', ')}
         on conflict (id) do update set
           name = excluded.name, email = excluded.email, avatar = excluded.avatar, role = excluded.role,
           activation = excluded.activation, referral_code = excluded.referral_code,
           referred_by = excluded.referred_by, created_at = excluded.created_at,
           profile_updated_at = excluded.profile_updated_at, deleted_at = excluded.deleted_at
         where users_view.profile_updated_at is null
            or users_view.profile_updated_at <= excluded.profile_updated_at`,
        values.flat(),
      );
    },

    async applyMoney(changes) {
      if (changes.length === 0) return;
      const values = changes.map((c) => [c.userId, c.balanceCents, c.totalDepositCents, c.totalSpentCents, c.seq]);
      await db.raw(
        `insert into users_view (id, balance_cents, total_deposit_cents, total_spent_cents, money_seq)
         values ${values.map(() => '(?::uuid, ?, ?, ?, ?)').join(', ')}
         on conflict (id) do update set
           balance_cents = excluded.balance_cents, total_deposit_cents = excluded.total_deposit_cents,
           total_spent_cents = excluded.total_spent_cents, money_seq = excluded.money_seq
         where coalesce(users_view.money_seq, -1) < excluded.money_seq`,
        values.flat(),
      );
    },

    async setAccess(id, fields) {
      if (fields.role === undefined && fields.activation === undefined) return;
      await db('users_view').where({ id }).update(fields);
    },

    async markDeleted(id) {
      await db('users_view').where({ id }).whereNull('deleted_at').update({ deleted_at: db.fn.now() });
    },

    async seededAt() {
      const row = await db('users_view_seed').first<{ completed_at: Date } | undefined>('completed_at');
      return row?.completed_at ?? null;
    },

    async markSeeded() {
      await db.raw(
        'insert into users_view_seed (id, completed_at) values (true, now()) on conflict (id) do update set completed_at = now()',
      );
    },
  };
}
