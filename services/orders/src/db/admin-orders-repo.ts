import type { Knex } from '@flatship/kit';
import { fromTx, type Tx } from '@flatship/kit';
import type {
  AdminBulkOrderFilters,
  AdminBulkOrderRecord,
  AdminLabelFilters,
  AdminLabelRecord,
  AdminOrdersRepo,
} from '../domain/admin-orders';
import { type LabelRow, toRecord } from './labels-repo';

export type AdminLabelRow = LabelRow & { row_index: number | null; voided_at: Date | null; voided_by: string | null };

export const toAdminRecord = (r: AdminLabelRow): AdminLabelRecord => ({
  ...toRecord(r),
  rowIndex: r.row_index,
  voidedAt: r.voided_at,
  voidedBy: r.voided_by,
});

// A day filter is whole UTC days, both included.
const dayStart = (day: string) => `${day}T00:00:00Z`;
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Every user's labels and bulk orders, for admins. */
export function createAdminOrdersRepo(db: Knex): AdminOrdersRepo {
  const labels = (tx?: Tx) => (fromTx(tx) ?? db)<AdminLabelRow>('labels');
  const labelFilters = (q: Knex.QueryBuilder, f: AdminLabelFilters) => {
    if (f.userId) q.where('user_id', f.userId);
    if (f.bulkOrderId) q.where('bulk_order_id', f.bulkOrderId);
    if (f.from) q.where('created_at', '>=', dayStart(f.from));
    if (f.to) q.where('created_at', '<', dayAfter(f.to));
    if (f.status) q.where('status', f.status);
    if (f.service) q.where('service_uid', f.service);
    if (f.tracking) q.whereRaw(`tracking_number ilike ? escape '\\'`, [`%${escapeLike(f.tracking)}%`]);
    return q;
  };
  const bulkFilters = (q: Knex.QueryBuilder, f: AdminBulkOrderFilters) => {
    q.whereNotNull('submitted_at');
    if (f.userId) q.where('user_id', f.userId);
    if (f.from) q.where('created_at', '>=', dayStart(f.from));
    if (f.to) q.where('created_at', '<', dayAfter(f.to));
    if (f.status) q.where('status', f.status);
    return q;
  };

  return {
    async listLabels(filters, page) {
      const [rows, count] = await Promise.all([
        labelFilters(labels(), filters)
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(page.limit)
          .offset((page.page - 1) * page.limit),
        labelFilters(labels(), filters).count<{ n: string }[]>({ n: '*' }),
      ]);
      return { rows: (rows as AdminLabelRow[]).map(toAdminRecord), totalCount: Number(count[0]?.n ?? 0) };
    },

    async listBulkOrders(filters, page) {
      const base = () => bulkFilters(db('bulk_orders'), filters);
      const [rows, count] = await Promise.all([
        base()
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(page.limit)
          .offset((page.page - 1) * page.limit),
        base().count<{ n: string }[]>({ n: '*' }),
      ]);
      const orders: AdminBulkOrderRecord[] = rows.map((r: Record<string, unknown>) => ({
        id: r.id as string,
        userId: r.user_id as string,
        status: r.status as AdminBulkOrderRecord['status'],
        source: r.source as string,
        fileName: (r.file_name as string | null) ?? null,
        totalCount: r.total_count as number,
        processedCount: r.processed_count as number,
        failedCount: r.failed_count as number,
        refundedCount: r.refunded_count as number,
        costCents: r.cost_cents as number,
        pdfName: (r.pdf_name as string | null) ?? null,
        resultCsvName: (r.result_csv_name as string | null) ?? null,
        autoConfirmName: (r.auto_confirm_name as string | null) ?? null,
        createdAt: r.created_at as Date,
      }));
      return { rows: orders, totalCount: Number(count[0]?.n ?? 0) };
    },
  };
}
