import type { Carrier, TrackingEvent, TrackingResult } from '@flatship/carriers';
import { AppError, type AuthContext } from '@flatship/kit';
import {
  type LabelTrackingReply,
  REFUND_MESSAGES,
  TRACKING_STATUS_TEXT,
  type TrackingStage,
  trackingStageOf,
} from '@flatship/proto';
import type { DomainLogger } from './ports';

// Tracking: where each bought label's parcel is, as its carrier says. USPS (and the sandbox) are asked by the
// tracking job, each label at a pace set by its age; EasyPost tells us through its tracker webhook, and is asked only
// now and then in case a webhook was lost. The news is kept on the label: Orders shows its stage and events, and a
// label past pre-transit was used, so it can no longer be refunded (`refundEligibility`).

/** A parcel's news as a carrier tells it. */
export type CarrierTracking = Omit<Extract<TrackingResult, { ok: true }>, 'ok'>;

/** A label the tracking job is to ask about. */
export interface DueLabel {
  id: string;
  trackingNumber: string;
  createdAt: Date;
  carrierId: string | null;
  /** When it was last asked before this round took it (null: never), put back when the round stops before it. */
  previousCheckAt: Date | null;
}

/** How often each label's carrier is asked (the TRACKING_* settings). */
export interface TrackingPolicy {
  /** A label bought within `freshDays` is asked at most once per this. */
  freshMs: number;
  freshDays: number;
  /** Older labels, at most once per this. */
  oldMs: number;
  /** Past this age a parcel is no longer asked about (delivered long ago, or never sent). */
  maxAgeDays: number;
  /** Carriers whose news comes by webhook (`easypost`): asked at most once per `pushedMs`, as a fallback. */
  pushedBy: readonly string[];
  pushedMs: number;
  /** Carriers that cannot track (the test parcel carrier): their labels are never asked about. */
  untrackedBy?: readonly string[];
}

/** A label's tracking as kept. */
export interface StoredTracking {
  labelId: string;
  userId: string;
  status: string;
  trackingNumber: string | null;
  carrierStatus: string | null;
  events: TrackingEvent[];
  estimatedDelivery: string | null;
  updatedAt: Date | null;
}

export interface TrackingRepo {
  /**
   * Bought labels not yet delivered, younger than the policy's limit, whose last look (or webhook) is older than
   * their interval, the never heard of first, then the longest unheard of, then the newest; each marked as looked at
   * now (the database's clock), so no other replica takes it. Rows another replica is taking are skipped.
   */
  takeDue(limit: number, policy: TrackingPolicy): Promise<DueLabel[]>;
  /** Puts back the last look of a label taken but not asked (the round stopped first). */
  putBack(label: DueLabel): Promise<void>;
  /**
   * Keeps the carrier's news on the label, unless it already holds newer news (an update never steps back).
   * The label's status before, or null when nothing was written.
   */
  record(labelId: string, tracking: CarrierTracking): Promise<{ before: string | null } | null>;
  find(labelId: string): Promise<StoredTracking | null>;
}

export interface TrackingDeps {
  tracking: TrackingRepo;
  carrier: Pick<Carrier, 'track'>;
  logger: DomainLogger;
}

/** After this many failed asks in a row (the carrier is down), the round stops: the rest wait for the next. */
const FAILURES_BEFORE_STOP = 3;

export interface TrackingRound {
  /** Labels whose carrier was asked. */
  checked: number;
  /** Labels whose status changed. */
  moved: number;
  /** Asks that failed (carrier unreachable, throttled, number unknown). */
  failed: number;
  /** Labels taken but not asked, because the carrier throttled or kept failing: taken again next round. */
  deferred: number;
}

/**
 * One round of the tracking job: up to `limit` labels due are asked of their carrier, one after another, and their
 * news kept. A carrier that throttles (429) or fails three times in a row ends the round; the labels not asked yet
 * are put back as they were, so they are first in line next round. Nothing a carrier answers breaks the job.
 */
export async function checkTracking(deps: TrackingDeps, policy: TrackingPolicy, limit: number): Promise<TrackingRound> {
  const due = await deps.tracking.takeDue(limit, policy);
  const round: TrackingRound = { checked: 0, moved: 0, failed: 0, deferred: 0 };
  let failuresInRow = 0;
  let stopped = false;
  for (const label of due) {
    if (stopped || !deps.carrier.track) {
      await deps.tracking.putBack(label);
      round.deferred++;
      continue;
    }
    round.checked++;
    let result: TrackingResult;
    try {
      result = await deps.carrier.track(label.trackingNumber, {
        purchasedAt: label.createdAt,
        ...(label.carrierId ? { carrierId: label.carrierId } : {}),
      });
    } catch (err) {
      deps.logger.warn({ err, labelId: label.id }, 'tracking could not be asked');
      result = { ok: false, message: 'carrier call failed', retryable: true };
    }
    if (!result.ok) {
      round.failed++;
      if (result.retryable) failuresInRow++;
      if (result.code === 'RATE_LIMITED' || failuresInRow >= FAILURES_BEFORE_STOP) {
        deps.logger.warn(
          { labelId: label.id, code: result.code, failuresInRow },
          'tracking round stopped: the carrier throttled or kept failing',
        );
        stopped = true;
      } else if (!result.retryable) {
        deps.logger.info({ labelId: label.id, code: result.code }, 'carrier has no tracking for the label');
      }
      continue;
    }
    failuresInRow = 0;
    const { ok: _ok, ...news } = result;
    const written = await deps.tracking.record(label.id, news);
    if (written && written.before !== news.status) round.moved++;
  }
  return round;
}

/** A label's tracking stage as every list shows it: only a bought label has a parcel to follow (a refunded one is void). */
export const labelTrackingStage = (label: { status: string; trackingStatus?: string | null }): TrackingStage | null =>
  label.status === 'completed' ? trackingStageOf(label.trackingStatus) : null;

const placeOf = (e: TrackingEvent) => {
  const cityState = [e.city, e.state].filter(Boolean).join(', ');
  return [cityState, e.zip].filter(Boolean).join(' ');
};

/**
 * GET /api/orders/labels/{labelId}/tracking: the label's parcel as last heard from its carrier. Only its owner or an
 * admin; to anyone else the label does not exist. A label not bought (or refunded) has no stage and no events.
 */
export async function getLabelTracking(
  deps: { tracking: TrackingRepo },
  auth: AuthContext,
  labelId: string,
): Promise<LabelTrackingReply> {
  const found = await deps.tracking.find(labelId);
  // Someone else's label is not found, as for refunds; an admin (or one visiting as the user) may read it.
  if (!found || (found.userId !== auth.userId && auth.role !== 'admin')) {
    throw new AppError('NOT_FOUND', REFUND_MESSAGES.labelNotFound);
  }
  const stage = labelTrackingStage({ status: found.status, trackingStatus: found.carrierStatus });
  const events = stage === null ? [] : [...found.events].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return {
    labelId: found.labelId,
    trackingNumber: found.trackingNumber,
    stage,
    detail: stage && found.carrierStatus ? (TRACKING_STATUS_TEXT[found.carrierStatus] ?? null) : null,
    estimatedDelivery: stage && stage !== 'delivered' ? found.estimatedDelivery : null,
    updatedAt: found.updatedAt?.toISOString() ?? null,
    events: events.map((e) => ({
      at: e.at,
      stage: trackingStageOf(e.status),
      description: e.description,
      place: placeOf(e),
    })),
  };
}
