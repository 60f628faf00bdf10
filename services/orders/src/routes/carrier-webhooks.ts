import { parseEasyPostTrackerEvent, type TrackingResult } from '@flatship/carriers';
import { AppError, type Knex, type ServiceApp } from '@flatship/kit';
import { BODY_LIMITS, ErrorBodySchema } from '@flatship/proto';
import { Type } from 'typebox';
import { MESSAGES } from '../domain/messages';

const WebhookReplySchema = Type.Object({ ok: Type.Literal(true), updated: Type.Integer({ minimum: 0 }) });

/** A parcel's news as a carrier tells it (the port's tracking answer; a tracker webhook reads the same). */
type Tracking = Omit<Extract<TrackingResult, { ok: true }>, 'ok'>;

/**
 * Keeps a tracker's news on the labels with its tracking number: status, events, expected delivery. An update whose
 * newest event is older than the one kept changes nothing, so webhooks delivered late or twice never step back.
 * Answers how many labels took it.
 */
export async function recordTracking(db: Knex, tracking: Tracking): Promise<number> {
  const newest = tracking.events[0]?.at ?? null;
  return db('labels')
    .where({ tracking_number: tracking.trackingNumber })
    .whereIn('status', ['completed', 'void'])
    .where((q) => {
      q.whereNull('tracking_event_at');
      if (newest) q.orWhere('tracking_event_at', '<=', newest);
    })
    .update({
      tracking_status: tracking.status,
      tracking_events: JSON.stringify(tracking.events),
      tracking_event_at: newest,
      tracking_estimated_delivery: tracking.estimatedDelivery ?? null,
      tracking_updated_at: db.fn.now(),
    });
}

/**
 * POST /api/orders/webhook/easypost: EasyPost's tracker events, without a user token. The HMAC signature covers the
 * exact bytes, so this route (alone, in its own scope) takes the body raw and trusts nothing until it is verified
 * with `EASYPOST_WEBHOOK_SECRET`; anything unverified is a 401, with the reason in the log only. A verified event
 * that is not about a tracker, about a parcel that is not ours, that is not an event at all, or whose tracker holds
 * values that cannot be used (a date in year 275760, details that are not a list) is acknowledged so EasyPost stops
 * resending it; the last two are logged with what is wrong.
 */
export async function registerCarrierWebhookRoutes(
  app: ServiceApp,
  deps: { db: Knex; easyPostWebhookSecret?: string | undefined },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMITS.default }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/orders/webhook/easypost',
      { schema: { response: { 200: WebhookReplySchema, 401: ErrorBodySchema } } },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const event = parseEasyPostTrackerEvent(raw, request.headers, deps.easyPostWebhookSecret);
        if (!event.ok && event.reason === 'malformed') {
          // Signed with our secret, so EasyPost sent it: refused, it would be sent again for a day.
          request.log.warn({ bytes: raw.length }, 'EasyPost event acknowledged but not used: the body is not an event');
          return { ok: true as const, updated: 0 };
        }
        if (!event.ok) {
          request.log.warn({ reason: event.reason, bytes: raw.length }, 'EasyPost webhook refused');
          throw new AppError('ORDERS_WEBHOOK_SIGNATURE', MESSAGES.webhookSignature);
        }
        if (event.kind === 'unusable') {
          request.log.warn(
            { eventId: event.eventId, description: event.description, problem: event.problem },
            `EasyPost event acknowledged but not used: ${event.problem}`,
          );
          return { ok: true as const, updated: 0 };
        }
        if (event.kind !== 'tracker') return { ok: true as const, updated: 0 };
        const updated = await recordTracking(deps.db, event.tracking);
        request.log.info(
          { eventId: event.eventId, status: event.tracking.status, updated },
          'tracking updated from EasyPost',
        );
        return { ok: true as const, updated };
      },
    );
  });
}
