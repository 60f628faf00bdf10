import type { Knex } from '@flatship/kit';
import { isId, TRACKING_STAGE_OF_STATUS, type TrackingStage } from '@flatship/proto';
import type { CarrierTracking, DueLabel, StoredTracking, TrackingRepo } from '../domain/tracking';

/** Statuses that are not pre-transit: anything else (no news, `unknown`) reads as pre-transit. */
const MOVED_STATUSES = Object.entries(TRACKING_STAGE_OF_STATUS)
  .filter(([, stage]) => stage !== 'pre_transit')
  .map(([status]) => status);

/**
 * Narrows a query on labels to bought labels at a tracking stage, as `trackingStageOf` reads their stored status:
 * the list filter and the list's column always agree.
 */
export function whereTrackingStage(query: Knex.QueryBuilder, stage: TrackingStage): Knex.QueryBuilder {
  query.where('labels.status', 'completed');
  if (stage === 'pre_transit') {
    return query.where((q) =>
      q.whereNull('labels.tracking_status').orWhereNotIn('labels.tracking_status', MOVED_STATUSES),
    );
  }
  const statuses = Object.entries(TRACKING_STAGE_OF_STATUS)
    .filter(([, s]) => s === stage)
    .map(([status]) => status);
  return query.whereIn('labels.tracking_status', statuses);
}

interface DueRow {
  id: string;
  tracking_number: string;
  created_at: Date;
  carrier_id: string | null;
  previous: Date | null;
  last_look: Date | null;
}

/** Tracking on the labels table (migrations 0012 and 0017). */
export function createTrackingRepo(db: Knex): TrackingRepo {
  return {
    async takeDue(limit, policy) {
      // The database's clock alone, as the refund job's: every replica measures intervals against the same time.
      // The last look is the job's own or the carrier's webhook, whichever is later.
      const result = await db.raw(
        `update labels l set tracking_checked_at = now()
           from (select id, tracking_checked_at as previous,
                        greatest(tracking_checked_at, tracking_updated_at) as last_look
                   from labels
                  where status = 'completed' and tracking_number is not null
                    and tracking_status is distinct from 'delivered'
                    and (carrier_id is null or carrier_id <> all(?::text[]))
                    and created_at > now() - make_interval(days => ?)
                    and (greatest(tracking_checked_at, tracking_updated_at) is null
                         or greatest(tracking_checked_at, tracking_updated_at) <= now() - make_interval(secs => (
                              case when carrier_id = any(?::text[]) then ?
                                   when created_at > now() - make_interval(days => ?) then ?
                                   else ? end)::double precision / 1000))
                  order by greatest(tracking_checked_at, tracking_updated_at) nulls first, created_at desc
                  limit ?
                  for update skip locked) due
          where l.id = due.id
          returning l.id, l.tracking_number, l.created_at, l.carrier_id, due.previous, due.last_look`,
        [
          [...(policy.untrackedBy ?? [])],
          policy.maxAgeDays,
          [...policy.pushedBy],
          policy.pushedMs,
          policy.freshDays,
          policy.freshMs,
          policy.oldMs,
          limit,
        ],
      );
      // `returning` keeps no order: the round asks in the order the rows were chosen.
      const rows = (result.rows as DueRow[]).sort(
        (a, b) =>
          Number(a.last_look !== null) - Number(b.last_look !== null) ||
          (a.last_look?.getTime() ?? 0) - (b.last_look?.getTime() ?? 0) ||
          b.created_at.getTime() - a.created_at.getTime(),
      );
      return rows.map(
        (r): DueLabel => ({
          id: r.id,
          trackingNumber: r.tracking_number,
          createdAt: r.created_at,
          carrierId: r.carrier_id,
          previousCheckAt: r.previous,
        }),
      );
    },

    async putBack(label) {
      await db('labels').where({ id: label.id }).update({ tracking_checked_at: label.previousCheckAt });
    },

    async record(labelId, tracking: CarrierTracking) {
      const newest = tracking.events[0]?.at ?? null;
      // The status before is read in the same statement, from the row as the update found it.
      const result = await db.raw(
        `update labels l
            set tracking_status = ?, tracking_events = ?::jsonb, tracking_event_at = ?,
                tracking_estimated_delivery = ?, tracking_updated_at = now()
           from (select id, tracking_status as before from labels where id = ? for update) old
          where l.id = old.id and l.status in ('completed', 'void')
            and (l.tracking_event_at is null or (?::timestamptz is not null and l.tracking_event_at <= ?::timestamptz))
          returning old.before`,
        [
          tracking.status,
          JSON.stringify(tracking.events),
          newest,
          tracking.estimatedDelivery ?? null,
          labelId,
          newest,
          newest,
        ],
      );
      const row = (result.rows as { before: string | null }[])[0];
      return row ? { before: row.before } : null;
    },

    async find(labelId) {
      if (!isId(labelId)) return null;
      const row = await db('labels')
        .where({ id: labelId })
        .first(
          'id',
          'user_id',
          'status',
          'tracking_number',
          'tracking_status',
          'tracking_events',
          db.raw("to_char(tracking_estimated_delivery, 'YYYY-MM-DD') as estimated_delivery"),
          'tracking_updated_at',
        );
      if (!row) return null;
      return {
        labelId: row.id,
        userId: row.user_id,
        status: row.status,
        trackingNumber: row.tracking_number,
        carrierStatus: row.tracking_status ?? null,
        events: Array.isArray(row.tracking_events) ? row.tracking_events : [],
        estimatedDelivery: row.estimated_delivery ?? null,
        updatedAt: row.tracking_updated_at ?? null,
      } satisfies StoredTracking;
    },
  };
}
