import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import { type ErrorCode, isId, type RefundState } from '@flatship/proto';
import type { LabelRecord, LabelRefundRecord, LabelStatus, LabelsRepo, NewLabel, Tx } from '../domain/ports';
import type { ShipmentAddress, ShipmentParcel } from '../domain/validate-shipment';
import { heldLockKeysSql, labelLockKeySql } from './purchase-locks';
import { whereTrackingStage } from './tracking-repo';

export interface LabelRow {
  id: string;
  user_id: string;
  bulk_order_id: string | null;
  idempotency_key: string | null;
  status: LabelStatus;
  courier: string;
  service_uid: string;
  service_name: string;
  sender: ShipmentAddress;
  receiver: ShipmentAddress;
  package: ShipmentParcel;
  price_cents: number;
  charge_key: string;
  charged_at: Date | null;
  refund_started_at: Date | null;
  refunded: boolean;
  request_hash: string | null;
  retryable: boolean;
  tracking_number: string | null;
  pdf_name: string | null;
  error_code: string | null;
  error: string | null;
  lease_until: Date | null;
  created_at: Date;
  updated_at: Date;
  carrier_id?: string | null;
  carrier_cost_cents?: number | null;
  carrier_ref?: string | null;
  carrier_sku?: string | null;
  tracking_status?: string | null;
  refund_status?: RefundState | null;
  refund_reason?: string | null;
  refund_requested_at?: Date | null;
  refund_requested_by?: string | null;
  refund_by_admin?: boolean;
  refund_ref?: string | null;
  refund_answered_at?: Date | null;
  refund_confirmed_at?: Date | null;
  refund_checked_at?: Date | null;
}

const refundOf = (r: LabelRow): LabelRefundRecord | null =>
  r.refund_status && r.refund_requested_at && r.refund_requested_by
    ? {
        status: r.refund_status,
        reason: r.refund_reason ?? null,
        requestedAt: r.refund_requested_at,
        requestedBy: r.refund_requested_by,
        byAdmin: r.refund_by_admin ?? false,
        ref: r.refund_ref ?? null,
        answeredAt: r.refund_answered_at ?? null,
        confirmedAt: r.refund_confirmed_at ?? null,
      }
    : null;

export const toRecord = (r: LabelRow): LabelRecord => ({
  id: r.id,
  userId: r.user_id,
  bulkOrderId: r.bulk_order_id,
  idempotencyKey: r.idempotency_key,
  status: r.status,
  courier: r.courier,
  serviceUid: r.service_uid,
  serviceName: r.service_name,
  sender: r.sender,
  receiver: r.receiver,
  parcel: r.package,
  priceCents: r.price_cents,
  chargeKey: r.charge_key,
  chargedAt: r.charged_at,
  refundStartedAt: r.refund_started_at,
  refunded: r.refunded,
  requestHash: r.request_hash,
  retryable: r.retryable,
  trackingNumber: r.tracking_number,
  pdfName: r.pdf_name,
  errorCode: r.error_code as ErrorCode | null,
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  purchase:
    r.status === 'completed' || r.status === 'void'
      ? {
          carrierId: r.carrier_id ?? null,
          costCents: r.carrier_cost_cents ?? null,
          ref: r.carrier_ref ?? null,
          sku: r.carrier_sku ?? null,
        }
      : null,
  refund: refundOf(r),
  trackingStatus: r.tracking_status ?? null,
});

export function createLabelsRepo(db: Knex): LabelsRepo {
  const q = (tx?: Tx) => (fromTx(tx) ?? db)<LabelRow>('labels');
  const first = (rows: LabelRow[]) => (rows[0] ? toRecord(rows[0]) : null);
  const newest = [
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ] as const;

  const findByIdempotencyKey = async (userId: string, key: string, tx?: Tx) => {
    if (!isId(userId)) return null;
    return first(await q(tx).where({ user_id: userId, idempotency_key: key }).limit(1));
  };

  return {
    async insertPending(label: NewLabel, tx) {
      const rows = await (fromTx(tx) ?? db)
        .raw(
          `insert into labels (id, user_id, bulk_order_id, idempotency_key, courier, service_uid, service_name,
                               sender, receiver, package, price_cents, charge_key, request_hash)
           values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?)
           on conflict (user_id, idempotency_key) do nothing
           returning *`,
          [
            label.id,
            label.userId,
            label.bulkOrderId ?? null,
            label.idempotencyKey,
            label.courier,
            label.serviceUid,
            label.serviceName,
            JSON.stringify(label.sender),
            JSON.stringify(label.receiver),
            JSON.stringify(label.parcel),
            label.priceCents,
            label.chargeKey,
            label.requestHash ?? null,
          ],
        )
        .then((r: { rows: LabelRow[] }) => r.rows);
      const inserted = first(rows);
      if (inserted) return { ok: true, label: inserted };
      const existing = label.idempotencyKey ? await findByIdempotencyKey(label.userId, label.idempotencyKey, tx) : null;
      if (!existing) throw new Error(`label ${label.id} was neither inserted nor found`);
      return { ok: false, existing };
    },

    async findById(id, tx) {
      if (!isId(id)) return null;
      return first(await q(tx).where({ id }).limit(1));
    },

    findByIdempotencyKey,

    async findByPdfName(pdfName, tx) {
      return first(await q(tx).where({ pdf_name: pdfName }).limit(1));
    },

    async markCharged(id, tx) {
      const n = await q(tx)
        .where({ id, status: 'pending' })
        .whereNull('refund_started_at')
        .update({ charged_at: db.raw('coalesce(charged_at, now())'), updated_at: db.fn.now() });
      return n === 1;
    },

    async complete(id, done, tx) {
      return first(
        await q(tx)
          .where({ id, status: 'pending' })
          .whereNull('refund_started_at')
          .update({
            status: 'completed',
            tracking_number: done.trackingNumber,
            pdf_name: done.pdfName,
            carrier_id: done.purchase?.carrierId ?? null,
            carrier_cost_cents: done.purchase?.costCents ?? null,
            carrier_ref: done.purchase?.ref ?? null,
            carrier_sku: done.purchase?.sku ?? null,
            error_code: null,
            error: null,
            lease_until: null,
            updated_at: db.fn.now(),
          })
          .returning('*'),
      );
    },

    async startRefund(id, why, tx) {
      const n = await q(tx)
        .where({ id, status: 'pending' })
        .update({
          refund_started_at: db.raw('coalesce(refund_started_at, now())'),
          error_code: why.errorCode,
          error: why.error,
          retryable: why.retryable,
          updated_at: db.fn.now(),
        });
      return n === 1;
    },

    async cancel(id, why, tx) {
      return first(
        await q(tx)
          .where({ id, status: 'pending' })
          .update({
            status: 'cancelled',
            error_code: why.errorCode,
            error: why.error,
            refunded: why.refunded,
            retryable: why.retryable ?? false,
            lease_until: null,
            updated_at: db.fn.now(),
          })
          .returning('*'),
      );
    },

    async markRefunded(id, tx) {
      await q(tx).where({ id, status: 'cancelled' }).update({ refunded: true, updated_at: db.fn.now() });
    },

    async releaseIdempotencyKey(id, tx) {
      const n = await q(tx)
        .where({ id, status: 'cancelled', retryable: true })
        .whereNotNull('idempotency_key')
        .update({ idempotency_key: null, updated_at: db.fn.now() });
      return n === 1;
    },

    async noteError(id, why, tx) {
      await q(tx).where({ id, status: 'pending' }).update({ error_code: why.errorCode, error: why.error });
    },

    async listUnheldPending(limit) {
      const result = await db.raw(
        `select * from labels
          where status = 'pending' and bulk_order_id is null
            and (lease_until is null or lease_until < now())
            and ${labelLockKeySql('labels.id::text')} not in (${heldLockKeysSql})
          order by updated_at
          limit ?`,
        [limit],
      );
      return (result.rows as LabelRow[]).map(toRecord);
    },

    async lease(id, until) {
      return first(await q().where({ id, status: 'pending' }).update({ lease_until: until }).returning('*'));
    },

    async listForUser(userId, opts, tx) {
      if (!isId(userId)) return [];
      const query = q(tx)
        .where({ user_id: userId })
        .orderBy([...newest])
        .limit(opts.limit);
      if (opts.singleOnly) query.whereNull('bulk_order_id');
      if (opts.tracking) whereTrackingStage(query, opts.tracking);
      return (await query).map(toRecord);
    },

    async countCompleted(userId, tx) {
      if (!isId(userId)) return 0;
      const row = await q(tx).where({ user_id: userId, status: 'completed' }).count<{ count: string }[]>('* as count');
      return Number(row[0]?.count ?? 0);
    },
  };
}
