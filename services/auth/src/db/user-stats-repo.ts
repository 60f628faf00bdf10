import type { Knex } from '@flatship/kit';

export interface UserStatsRow {
  totalUsers: number;
  newSince: number;
  latest: { userId: string; name: string; email: string; createdAt: Date }[];
}

/** Counts for the admin dashboard; read-only. */
export function createUserStatsRepo(db: Knex) {
  return {
    async read(since: Date, latestLimit: number): Promise<UserStatsRow> {
      const [counts] = await db('users').select(
        db.raw('count(*)::int as total'),
        db.raw('(count(*) filter (where created_at >= ?))::int as new_since', [since]),
      );
      const latest = await db('users')
        .select('id', 'name', 'email', 'created_at')
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(latestLimit);
      return {
        totalUsers: Number(counts?.total ?? 0),
        newSince: Number(counts?.new_since ?? 0),
        latest: latest.map((u) => ({ userId: u.id, name: u.name, email: u.email, createdAt: u.created_at })),
      };
    },
  };
}
export type UserStatsRepo = ReturnType<typeof createUserStatsRepo>;
