import type { Knex } from '@flatship/kit';
import { fromTx, type Tx } from '@flatship/kit';
import { isId } from '@flatship/proto';
import type { ManifestableLabel, ManifestScope, ScanFormRecord, ScanFormsRepo } from '../domain/scan-forms/ports';
import type { ShipmentAddress } from '../domain/validate-shipment';

interface FormRow {
  id: string;
  user_id: string;
  scope: 'bulk' | 'day';
  bulk_order_id: string | null;
  carrier_id: string;
  carrier_form_id: string;
  idempotency_key: string;
  sender: ShipmentAddress;
  ship_date: string;
  label_count: number;
  pdf_key: string;
  created_at: Date;
}

const toForm = (r: FormRow): ScanFormRecord => ({
  id: r.id,
  userId: r.user_id,
  scope: r.scope,
  bulkOrderId: r.bulk_order_id,
  carrierId: r.carrier_id,
  carrierFormId: r.carrier_form_id,
  idempotencyKey: r.idempotency_key,
  sender: r.sender,
  shipDate: r.ship_date,
  labelCount: r.label_count,
  pdfKey: r.pdf_key,
  createdAt: r.created_at,
});

// `ship_date` as text: a date column read into a JavaScript Date would shift with the process's time zone.
const FORM_COLUMNS = [
  'id',
  'user_id',
  'scope',
  'bulk_order_id',
  'carrier_id',
  'carrier_form_id',
  'idempotency_key',
  'sender',
  'label_count',
  'pdf_key',
  'created_at',
];

/** A label that may go on a form: bought, no refund asked (requested, refunded or refused), on no form yet. */
const manifestable = (q: Knex.QueryBuilder) =>
  q.where('status', 'completed').whereNull('refund_status').whereNull('scan_form_id').whereNotNull('tracking_number');

/** SCAN forms and the labels on them (see migration 0016). */
export function createScanFormsRepo(db: Knex): ScanFormsRepo {
  const conn = (tx?: Tx) => fromTx(tx) ?? db;
  const forms = (tx?: Tx) =>
    conn(tx)<FormRow>('scan_forms').select(
      ...FORM_COLUMNS,
      conn(tx).raw("to_char(ship_date, 'YYYY-MM-DD') as ship_date"),
    );
  const ofScope = (q: Knex.QueryBuilder, s: ManifestScope) =>
    s.scope === 'bulk'
      ? q.where({ bulk_order_id: s.bulkOrderId })
      : q
          .where({ user_id: s.userId })
          .whereNull('bulk_order_id')
          .where('created_at', '>=', s.bounds.from)
          .where('created_at', '<', s.bounds.until);

  return {
    async listManifestable(s, tx) {
      const q = conn(tx)('labels').select(
        'id',
        'user_id',
        'bulk_order_id',
        'tracking_number',
        'sender',
        'carrier_id',
        'carrier_ref',
      );
      manifestable(ofScope(q, s));
      q.orderBy(s.scope === 'bulk' ? 'row_index' : 'created_at').orderBy('id');
      const rows = (await q) as {
        id: string;
        user_id: string;
        bulk_order_id: string | null;
        tracking_number: string;
        sender: ShipmentAddress;
        carrier_id: string | null;
        carrier_ref: string | null;
      }[];
      return rows.map(
        (r): ManifestableLabel => ({
          id: r.id,
          userId: r.user_id,
          bulkOrderId: r.bulk_order_id,
          trackingNumber: r.tracking_number,
          sender: r.sender,
          carrierId: r.carrier_id,
          carrierRef: r.carrier_ref,
        }),
      );
    },

    async countManifestable(userId, day) {
      const q = db('labels')
        .where({ user_id: userId })
        .select(
          'bulk_order_id',
          db.raw('count(*)::int as n'),
          db.raw('count(*) filter (where created_at >= ? and created_at < ?)::int as today', [day.from, day.until]),
        )
        .groupBy('bulk_order_id');
      const rows = (await manifestable(q)) as { bulk_order_id: string | null; n: number; today: number }[];
      const byOrder: Record<string, number> = {};
      let today = 0;
      for (const r of rows) {
        if (r.bulk_order_id) byOrder[r.bulk_order_id] = r.n;
        else today = r.today;
      }
      return { today, byOrder };
    },

    async insert(form, tx) {
      await conn(tx)('scan_forms').insert({
        id: form.id,
        user_id: form.userId,
        scope: form.scope,
        bulk_order_id: form.bulkOrderId,
        carrier_id: form.carrierId,
        carrier_form_id: form.carrierFormId,
        idempotency_key: form.idempotencyKey,
        sender: JSON.stringify(form.sender),
        ship_date: form.shipDate,
        label_count: form.labelCount,
        pdf_key: form.pdfKey,
        // The moment of the insert, not of the transaction: forms made in one request keep their order.
        created_at: db.raw('clock_timestamp()'),
      });
      const row = (await forms(tx).where({ id: form.id }).first()) as FormRow;
      return toForm(row);
    },

    async attach(formId, labelIds, tx) {
      if (labelIds.length === 0) return 0;
      return conn(tx)('labels')
        .whereIn('id', [...labelIds])
        .whereNull('scan_form_id')
        .update({ scan_form_id: formId, updated_at: db.fn.now() });
    },

    async findById(id) {
      if (!isId(id)) return null;
      const row = (await forms().where({ id }).first()) as FormRow | undefined;
      return row ? toForm(row) : null;
    },

    async listOfScope(s, tx) {
      const q = forms(tx).where({ user_id: s.userId, scope: s.scope });
      if (s.scope === 'bulk') q.where({ bulk_order_id: s.bulkOrderId });
      else q.where({ ship_date: s.day });
      return ((await q.orderBy('created_at').orderBy('id')) as FormRow[]).map(toForm);
    },

    async listForUser(userId, limit) {
      const rows = (await forms().where({ user_id: userId }).orderBy('created_at', 'desc').limit(limit)) as FormRow[];
      return rows.map(toForm);
    },
  };
}
