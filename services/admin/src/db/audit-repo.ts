import type { Knex } from '@flatship/kit';
import type { AuditEntry, ImpersonationActionEvent } from '@flatship/proto';

interface AuditRow {
  id: string;
  at: Date;
  admin_id: string;
  admin_email: string | null;
  user_id: string;
  user_email: string | null;
  method: string;
  path: string;
  status: number;
}

export interface AuditQueryInput {
  page: number;
  limit: number;
  userId?: string;
  adminId?: string;
}

export interface AuditRepo {
  /** Idempotent: the same event (by its id) recorded twice is one entry; two events are two entries. */
  record(event: ImpersonationActionEvent): Promise<void>;
  list(q: AuditQueryInput): Promise<{ entries: AuditEntry[]; totalCount: number }>;
}

export function createAuditRepo(db: Knex): AuditRepo {
  return {
    async record(e) {
      const fields = [e.at, e.adminId, e.userId, e.method, e.path, e.status];
      if (e.id) {
        await db.raw(
          `insert into audit_entries (event_id, at, admin_id, user_id, method, path, status)
           values (?::uuid, ?::timestamptz, ?::uuid, ?::uuid, ?, ?, ?)
           on conflict (event_id) do nothing`,
          [e.id, ...fields],
        );
        return;
      }
      // An event from before ids: the one entry its fields make (see migration 0003).
      await db.raw(
        `insert into audit_entries (at, admin_id, user_id, method, path, status)
         values (?::timestamptz, ?::uuid, ?::uuid, ?, ?, ?)
         on conflict (admin_id, user_id, at, method, path, status) where event_id is null do nothing`,
        fields,
      );
    },

    async list(q) {
      const filtered = () =>
        db('audit_entries as a').modify((b) => {
          if (q.userId) b.where('a.user_id', q.userId);
          if (q.adminId) b.where('a.admin_id', q.adminId);
        });
      const [count] = await filtered().count<{ count: string }[]>('* as count');
      // Emails from the user table's read model; a user it does not know yet has none.
      const rows = (await filtered()
        .leftJoin('users_view as admin', 'admin.id', 'a.admin_id')
        .leftJoin('users_view as usr', 'usr.id', 'a.user_id')
        .select('a.*', 'admin.email as admin_email', 'usr.email as user_email')
        .orderBy([
          { column: 'a.at', order: 'desc' },
          { column: 'a.id', order: 'desc' },
        ])
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)) as AuditRow[];
      return {
        totalCount: Number(count?.count ?? 0),
        entries: rows.map((r) => ({
          _id: r.id,
          at: r.at.toISOString(),
          adminId: r.admin_id,
          adminEmail: r.admin_email || null,
          userId: r.user_id,
          userEmail: r.user_email || null,
          method: r.method,
          path: r.path,
          status: r.status,
        })),
      };
    },
  };
}
