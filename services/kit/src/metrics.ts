import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry as PromRegistry, type Registry } from 'prom-client';

/**
 * Every metric Flatship exports, declared once here so services do not each
 * re-declare (and subtly rename) them. `flatshipMetrics(registry)` hands out
 * the instruments of one registry; each is created on first use, so a
 * service's /metrics lists only what it measures. Names and labels are
 * documented in the kit README ("Metrics").
 */

/** Seconds; from a fast internal call to a slow bulk upload. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds; carrier APIs answer in hundreds of milliseconds, and time out after tens of seconds. */
const CARRIER_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 2, 5, 10, 30];
/** Seconds; a bulk order of a few rows takes a second, one of thousands minutes. */
const BULK_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600];

/** Where a label purchase was made: one order of one label, or a row of a bulk order (the label worker). */
export type LabelSource = 'single' | 'bulk';
export type CarrierOperation = 'purchase' | 'refund';
/** ok: the carrier answered with a label; refused: a business refusal; error: unreachable, timed out or threw. */
export type CarrierOutcome = 'ok' | 'refused' | 'error';

export interface FlatshipMetrics {
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_class'>;
  readonly labelsBought: Counter<'carrier' | 'service' | 'source'>;
  readonly labelsFailed: Counter<'carrier' | 'service' | 'source' | 'reason'>;
  readonly carrierCallDuration: Histogram<'carrier' | 'operation' | 'outcome'>;
  readonly bulkOrderDuration: Histogram<'status'>;
  /** Reports `<schema>.outbox`'s waiting rows at each scrape, asking `count` then. */
  trackOutboxDepth(schema: string, count: () => Promise<number>): void;
  /** One carrier purchase: its latency, and the label bought or failed (shaped as carriers' `observePurchases` reports). */
  carrierPurchase(
    source: LabelSource,
    o: { courier: string; serviceUid: string; outcome: CarrierOutcome; seconds: number },
  ): void;
  /**
   * One HTTP call a live carrier adapter made (shaped as carriers' `CarrierCallObservation`): its latency, an error
   * by status, and the 429s met on the way.
   */
  carrierHttpCall(o: {
    carrier: string;
    operation: string;
    status: number;
    outcome: string;
    rateLimited: number;
    seconds: number;
  }): void;
  /**
   * What a carrier of the enabled set answered (shaped as carriers' `CarrierResult`): a label, a void's or refund
   * check's status, or the catalogue code of its refusal.
   */
  carrierResult(o: { carrier: string; operation: string; result: string }): void;
  /** A bulk order reached its final status; its duration runs from its accepted submit. */
  bulkOrderFinished(o: { status: string; submittedAt: Date | null }, now?: Date): void;
}

/** A registry carrying the service name on every series, with Node's default process metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new PromRegistry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

const byRegistry = new WeakMap<Registry, FlatshipMetrics>();

function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

export function flatshipMetrics(registry: Registry): FlatshipMetrics {
  const known = byRegistry.get(registry);
  if (known) return known;
  const registers = [registry];
  const http = once(
    () =>
      new Histogram({
        name: 'flatship_http_request_duration_seconds',
        help: 'HTTP requests answered, by method, route pattern and status class (2xx, 4xx, ...)',
        labelNames: ['method', 'route', 'status_class'],
        buckets: HTTP_BUCKETS,
        registers,
      }),
  );
  const bought = once(
    () =>
      new Counter({
        name: 'flatship_labels_bought_total',
        help: 'Labels a carrier sold, by carrier, service and source (single or bulk)',
        labelNames: ['carrier', 'service', 'source'],
        registers,
      }),
  );
  const failed = once(
    () =>
      new Counter({
        name: 'flatship_labels_failed_total',
        help: 'Label purchase attempts that got no label, by carrier, service, source and reason (refused or error)',
        labelNames: ['carrier', 'service', 'source', 'reason'],
        registers,
      }),
  );
  const carrier = once(
    () =>
      new Histogram({
        name: 'flatship_carrier_call_duration_seconds',
        help: 'Calls to a carrier, by carrier, operation (purchase, refund) and outcome (ok, refused, error)',
        labelNames: ['carrier', 'operation', 'outcome'],
        buckets: CARRIER_BUCKETS,
        registers,
      }),
  );
  const bulk = once(
    () =>
      new Histogram({
        name: 'flatship_bulk_order_duration_seconds',
        help: 'Bulk orders from their accepted submit to their final status, by that status',
        labelNames: ['status'],
        buckets: BULK_BUCKETS,
        registers,
      }),
  );
  const carrierHttp = once(
    () =>
      new Histogram({
        name: 'flatship_carrier_http_duration_seconds',
        help: 'HTTP calls a live carrier adapter made, by carrier, operation and outcome (ok, client_error, server_error, rate_limited, timeout, network)',
        labelNames: ['carrier', 'operation', 'outcome'],
        buckets: CARRIER_BUCKETS,
        registers,
      }),
  );
  const carrierErrors = once(
    () =>
      new Counter({
        name: 'flatship_carrier_http_errors_total',
        help: 'HTTP calls to a live carrier that did not end well, by carrier, operation and status (0: no answer)',
        labelNames: ['carrier', 'operation', 'status'],
        registers,
      }),
  );
  const carrierThrottled = once(
    () =>
      new Counter({
        name: 'flatship_carrier_rate_limited_total',
        help: 'Answers of 429 (too many requests) from a live carrier, retried or not, by carrier and operation',
        labelNames: ['carrier', 'operation'],
        registers,
      }),
  );
  const carrierResults = once(
    () =>
      new Counter({
        name: 'flatship_carrier_results_total',
        help: 'Answers of each enabled carrier, by carrier, operation (purchase, void, refund_status) and result (ok; refunded, pending or rejected; a refusal by its catalogue code, e.g. RATE_LIMITED; ERROR when the call threw)',
        labelNames: ['carrier', 'operation', 'result'],
        registers,
      }),
  );
  const outboxCounts = new Map<string, () => Promise<number>>();
  const outbox = once(
    () =>
      new Gauge({
        name: 'flatship_outbox_depth',
        help: 'Events recorded in a schema outbox and not yet relayed to the bus, counted at each scrape',
        labelNames: ['schema'],
        registers,
        async collect() {
          this.reset();
          for (const [schema, count] of outboxCounts) {
            // An unreachable database leaves the series out for this scrape rather than failing the whole page.
            try {
              this.set({ schema }, await count());
            } catch {}
          }
        },
      }),
  );
  const metrics: FlatshipMetrics = {
    get httpRequestDuration() {
      return http();
    },
    get labelsBought() {
      return bought();
    },
    get labelsFailed() {
      return failed();
    },
    get carrierCallDuration() {
      return carrier();
    },
    get bulkOrderDuration() {
      return bulk();
    },
    trackOutboxDepth(schema, count) {
      outboxCounts.set(schema, count);
      outbox();
    },
    carrierPurchase(source, o) {
      carrier().observe({ carrier: o.courier, operation: 'purchase', outcome: o.outcome }, o.seconds);
      const labels = { carrier: o.courier, service: o.serviceUid, source };
      if (o.outcome === 'ok') bought().inc(labels);
      else failed().inc({ ...labels, reason: o.outcome });
    },
    carrierHttpCall(o) {
      const labels = { carrier: o.carrier, operation: o.operation };
      carrierHttp().observe({ ...labels, outcome: o.outcome }, o.seconds);
      if (o.outcome !== 'ok') carrierErrors().inc({ ...labels, status: String(o.status) });
      if (o.rateLimited > 0) carrierThrottled().inc(labels, o.rateLimited);
    },
    carrierResult(o) {
      carrierResults().inc({ carrier: o.carrier, operation: o.operation, result: o.result });
    },
    bulkOrderFinished(o, now = new Date()) {
      // An order that failed before it was ever submitted took no time to process.
      if (!o.submittedAt) return;
      bulk().observe({ status: o.status }, Math.max(0, now.getTime() - o.submittedAt.getTime()) / 1000);
    },
  };
  byRegistry.set(registry, metrics);
  return metrics;
}

/** `2xx`, `4xx`, ...: a status class keeps the series few while still telling errors apart. */
export const statusClassOf = (status: number) => `${Math.floor(status / 100)}xx`;

/** Route label of a request no route matched: never the raw URL, which would make a series per scanned path. */
export const UNMATCHED_ROUTE = 'unmatched';

const routeLabels = new WeakMap<object, string>();

/**
 * Names a request's route in the duration histogram when its matched pattern
 * says too little: the gateway's one `/api/*` route is labelled with the
 * route-table prefix that answered (`/api/orders/*`). Never the raw URL.
 */
export function setRouteLabel(request: FastifyRequest, route: string): void {
  routeLabels.set(request, route);
}

/**
 * Times every request of `app` into `flatship_http_request_duration_seconds`,
 * labelled with the route pattern (`/api/orders/:id`), never the raw URL.
 */
export function observeHttpRequests(app: FastifyInstance, registry: Registry): void {
  const histogram = flatshipMetrics(registry).httpRequestDuration;
  app.addHook('onResponse', async (request, reply) => {
    histogram.observe(
      {
        method: request.method,
        route: routeLabels.get(request) ?? request.routeOptions.url ?? UNMATCHED_ROUTE,
        status_class: statusClassOf(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}
