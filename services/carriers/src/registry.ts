import type { MarketplaceCarrierCodes } from '@flatship/proto';
import { type TSchema, Type } from 'typebox';
// The carrier registry: every carrier the platform can sell, one line each, and the composition of the enabled ones
// into the one carrier the services talk to. Adding a carrier is a folder with its plugin plus a line in
// `CARRIER_PLUGINS`.
import { refusal } from './carrier-messages';
import { EASYPOST_CONFIG, type EasyPostSettings, easyPostSettings } from './easypost/config';
import type { CarrierCallObservation } from './http/carrier-http';
import {
  createProcessRateSlots,
  createRateGate,
  type PurchaseGate,
  type RateClock,
  type RateSlotStore,
} from './pool/rate-slots';
import {
  type Carrier,
  type CarrierCapability,
  type CarrierService,
  createProcessMemory,
  type LabelRequest,
  type LabelResult,
  type PurchaseMemory,
  type RefundResult,
  supports,
  type VoidRequest,
} from './port';
import { USPS_CONFIG, type UspsConfig } from './usps-api/config';
import type { CarrierLogger } from './usps-api/usps-session';

export { DEFAULT_SANDBOX_CARRIER_BALANCE } from './sandbox/balance';

import { easyPostPlugin } from './easypost/plugin';
import { sandboxUspsPlugin } from './sandbox/plugin';
import { testParcelPlugin } from './test-parcel/plugin';
import { uspsPlugin } from './usps-api/plugin';

/** Settings a carrier may read; each carrier takes what applies to it and ignores the rest. */
export interface CarrierSettings {
  /** Share (0..1) of purchases a simulated carrier fails. */
  failureRate?: number;
  /** Simulated round trip of each purchase. */
  latencyMs?: number;
  /** Threads rendering label PDFs; 0 renders on the calling thread. */
  renderThreads?: number;
  /** Account balance, in cents, a simulated carrier reports (`SANDBOX_CARRIER_BALANCE`). */
  sandboxBalanceCents?: number;
  /** How long one hour of the sandbox's tracking journey lasts (`SANDBOX_TRACKING_HOUR_MS`); an hour when not set. */
  sandboxTrackingHourMs?: number;
  /** Where the sandbox's journey clock is moved forward by hand (`SANDBOX_JOURNEY_FILE`, test stacks); real time when not set. */
  sandboxJourneyFile?: string;
  /** The USPS_* variables (`USPS_CONFIG`), for the live USPS carrier; checked when it is created. */
  usps?: Partial<UspsConfig>;
  /** Where live carriers write what their carrier said (refusals, errors); never shown to customers. */
  log?: CarrierLogger;
  /** Every HTTP call a live carrier makes, for metrics (`CarrierCallObservation`). */
  observeCarrierCalls?: (o: CarrierCallObservation) => void;
  /** What each carrier of a set answered to each purchase, void and refund check, for metrics (`CarrierResult`). */
  observeCarrierResults?: (o: CarrierResult) => void;
  /**
   * Where purchases are remembered across crashes (the buying service's database): which carrier each key went to,
   * and what a carrier without idempotency keys must look up. A process memory when not given (tests, tools).
   */
  memory?: PurchaseMemory;
  /** The `easypost` carrier's settings, from `easyPostSettings(config)` (`EASYPOST_*`). */
  easypost?: EasyPostSettings;
  /** Purchases a second each carrier may be sent (`CARRIER_RATE_LIMIT`, read by `carrierRateLimits`); none by default. */
  rateLimits?: CarrierRateLimits;
  /**
   * Where each limited carrier's send slots are handed out (the orders database's `carrier_rate_slots`), shared by
   * every process that buys, so the limit holds for all of them together; this process's own when not given.
   */
  rateSlots?: RateSlotStore;
  /** The clock the rate gates keep; the system's by default (tests drive a virtual one). */
  rateClock?: RateClock;
  /**
   * Given to each carrier by the carrier set, from `rateLimits`: taken right before every call that buys (each
   * attempt, retries included), so the carrier's own limit is kept on the call it counts; paused by a 429.
   */
  purchaseGate?: PurchaseGate;
  /**
   * Where an admin's choice of carrier for each service is kept (the orders database), shared by every process that
   * buys: the set reads it before a purchase when its copy is older than `routeRefreshMs`. A service the store does
   * not name (or names with a carrier this process has not enabled) keeps its default route.
   */
  routeStore?: RouteStore;
  /** How old the set's copy of the stored routes may be when a purchase starts (default 2000 ms). */
  routeRefreshMs?: number;
}

/**
 * One answer of a carrier in a set: `result` is `ok` for a label, the refund's status for a void or a refund check
 * (`refunded`, `pending`, `rejected`), the catalogue code of a refusal (`RATE_LIMITED`, `ADDRESS_INVALID`, …,
 * `REFUSED` when it gave none), or `ERROR` when the call threw.
 */
export interface CarrierResult {
  carrier: string;
  operation: 'purchase' | 'void' | 'refund_status';
  result: string;
}

/** The routes an admin chose, as stored. */
export interface RouteStore {
  load(): Promise<ServiceRoute[]>;
}

export const DEFAULT_ROUTE_REFRESH_MS = 2000;

/** Purchases a second each carrier may be sent: a default, and per registry id; 0 is no limit. */
export interface CarrierRateLimits {
  readonly default: number;
  readonly byCarrier: Readonly<Record<string, number>>;
}

/**
 * Milliseconds added to the second each carrier's rate is spread over (`createRateGate`): a purchase sent here
 * reaches the carrier a moment later, and the moments differ (event loops, connections, the carrier's queue). With
 * the rate's sends spread over 1 s + guard, a carrier counting arrivals sees at most the rate in any of its seconds
 * while no call arrives more than the guard later than another; half of it goes to timers that fire late (a slot
 * reached later than that is given up), half to the way to the carrier. 20 ms let a 51st buy into EasyPost's second
 * on a busy machine; 40 ms costs 2% of the rate.
 */
export const RATE_GUARD_MS = 40;

export const CARRIER_RATE_LIMIT_DESCRIPTION =
  'purchases a second each carrier is sent by orders and every label worker together (evenly spaced slots shared ' +
  'through the orders database, counted on the call that buys, retries included; a 429 pauses the carrier for its ' +
  'Retry-After): a number for every carrier, and/or id=number for one (e.g. "easypost=50,usps=20"); 0 is no limit. ' +
  'Every replica must be given the same value';

/** `CARRIER_RATE_LIMIT` read: a number for every carrier and/or `id=number` items; a problem naming the item at fault. */
export function carrierRateLimits(
  value: string,
  registry: readonly CarrierPlugin[] = CARRIER_PLUGINS,
): CarrierRateLimits | { problem: string } {
  let fallback: number | null = null;
  const byCarrier: Record<string, number> = {};
  const rateOf = (text: string) => {
    const n = Number(text);
    return text.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : null;
  };
  for (const item of splitIds(value)) {
    const at = item.indexOf('=');
    if (at < 0) {
      const n = rateOf(item);
      if (n === null) return { problem: `"${item}" is not a number of 0 or more` };
      if (fallback !== null) return { problem: 'more than one rate for every carrier' };
      fallback = n;
      continue;
    }
    const id = item.slice(0, at).trim();
    const n = rateOf(item.slice(at + 1));
    if (!registry.some((p) => p.id === id)) {
      return { problem: `unknown carrier "${id}"; known carriers: ${registry.map((p) => p.id).join(', ')}` };
    }
    if (n === null) return { problem: `the rate of ${id} is not a number of 0 or more` };
    if (id in byCarrier) return { problem: `${id} is given twice` };
    byCarrier[id] = n;
  }
  return { default: fallback ?? 0, byCarrier };
}

/** The `CARRIER_RATE_LIMIT` setting of a service that buys labels, checked at start. */
export const carrierRateLimitConfig = () =>
  Type.Refine(
    Type.String({ default: '0', description: CARRIER_RATE_LIMIT_DESCRIPTION }),
    (v) => !('problem' in carrierRateLimits(v)),
    (v) => {
      const read = carrierRateLimits(v);
      return 'problem' in read ? read.problem : '';
    },
  );

/** `CARRIER_RATE_LIMIT` read for `CarrierSettings.rateLimits` (checked at start by `carrierRateLimitConfig`). */
export function readCarrierRateLimits(value: string): CarrierRateLimits {
  const read = carrierRateLimits(value);
  if ('problem' in read) throw new Error(`CARRIER_RATE_LIMIT=${JSON.stringify(value)}: ${read.problem}`);
  return read;
}

/** A carrier that may hold resources (render threads, connections) until closed. */
export interface ClosableCarrier extends Carrier {
  close(): Promise<void>;
}

/**
 * One carrier as the registry knows it. `id` names the adapter in configuration (`CARRIERS`); `courier` is what
 * labels, services and order rows call the carrier (`Carrier.id`), so a simulated and a live adapter of the same
 * carrier sell under one courier and rows written with either read the same.
 */
export interface CarrierPlugin {
  readonly id: string;
  readonly courier: string;
  /** How people call the carrier. */
  readonly name: string;
  /**
   * How the carrier is named in each marketplace's confirmation (tracking) file, by marketplace id; a marketplace
   * it declares nothing for names it its own way (Amazon: code `Other`, the courier as name).
   */
  readonly marketplaceCodes: MarketplaceCarrierCodes;
  /** What the carrier sells; the same list its adapter's `services()` gives. */
  readonly services: readonly CarrierService[];
  /** The configuration variables the carrier reads, as TypeBox properties to spread into a service's schema. */
  readonly config?: Readonly<Record<string, TSchema>>;
  /** What is wrong with those variables when the carrier is enabled, each problem naming its variable. */
  configProblems?(env: Readonly<Record<string, string | undefined>>): string[];
  create(settings: CarrierSettings): ClosableCarrier;
}

/** Every carrier there is, in the order a list of them is shown. Enabled ones are chosen by `CARRIERS`. */
export const CARRIER_PLUGINS: readonly CarrierPlugin[] = [
  sandboxUspsPlugin,
  testParcelPlugin,
  uspsPlugin,
  easyPostPlugin,
];

/** `CARRIERS` when it is not set: the built-in sandbox. */
export const DEFAULT_CARRIERS = sandboxUspsPlugin.id;

export const CARRIERS_DESCRIPTION = `comma-separated registry ids, from: ${CARRIER_PLUGINS.map((p) => p.id).join(', ')}`;

const splitIds = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** What is wrong with a `CARRIERS` value, naming the id at fault; null when it is fine. */
export function carrierListProblem(value: string, registry: readonly CarrierPlugin[] = CARRIER_PLUGINS): string | null {
  const ids = splitIds(value);
  if (ids.length === 0) return 'no carrier given';
  const unknown = ids.filter((id) => !registry.some((p) => p.id === id));
  if (unknown.length > 0) {
    const names = unknown.map((id) => `"${id}"`).join(', ');
    return `unknown carrier ${names}; known carriers: ${registry.map((p) => p.id).join(', ')}`;
  }
  return null;
}

/**
 * What is wrong with the configuration of the carriers a `CARRIERS` value enables (their own variables, e.g.
 * `EASYPOST_API_KEY`), one line per problem naming the variable; empty when all is well. For start-up checks.
 */
export function carrierConfigProblems(value: string, env: Readonly<Record<string, string | undefined>>): string[] {
  if (carrierListProblem(value) !== null) return [];
  const ids = [...new Set(splitIds(value))];
  return ids.flatMap((id) => CARRIER_PLUGINS.find((p) => p.id === id)?.configProblems?.(env) ?? []);
}

/**
 * The registered carrier that sells under a courier (enabled or not: old labels keep their carrier). Several
 * plugins may sell one courier (the sandbox, USPS direct and EasyPost all sell `usps`): the first registered
 * stands for it, as they share its name and Amazon columns.
 */
export function findCarrierByCourier(courier: string): CarrierPlugin | null {
  return CARRIER_PLUGINS.find((p) => p.courier === courier) ?? null;
}

/** The courier that sells a service, from every registered carrier; null for a service no carrier has. */
export function courierOfService(serviceUid: string): string | null {
  return CARRIER_PLUGINS.find((p) => p.services.some((s) => s.uid === serviceUid))?.courier ?? null;
}

/** Which enabled carriers sell a service, in the order they are asked: the first sells, the rest stand by. */
export interface ServiceRoute {
  serviceUid: string;
  carriers: string[];
}

/** The enabled carriers, composed into one carrier: services of all of them, each purchase along its service's route. */
export interface CarrierSet extends ClosableCarrier {
  /** The enabled carriers' couriers, once each, in `CARRIERS` order; the first is the default for a new order row. */
  readonly couriers: readonly string[];
  readonly carriers: readonly CarrierPlugin[];
  /** The account balance with each enabled carrier, in cents, in `CARRIERS` order. */
  balances(): Promise<{ id: string; name: string; balanceCents: number }[]>;
  /** Every service's route. By default the enabled carriers that sell it, in `CARRIERS` order. */
  routes(): ServiceRoute[];
  /**
   * Changes routes (an admin switching a service to another carrier). Each route must name enabled carriers that
   * sell its service; a service not named keeps its route. Throws naming what is wrong, changing nothing.
   */
  setRoutes(routes: readonly ServiceRoute[]): void;
  /** What is wrong with routes, in the words `setRoutes` would throw; null when all of them can be set. */
  routesProblem(routes: readonly ServiceRoute[]): string | null;
  /** Reads the route store now (after a change was saved), instead of when the copy is next due. */
  reloadRoutes(): Promise<void>;
  /** The enabled adapter of a plugin id, or null. */
  adapter(carrierId: string): ClosableCarrier | null;
}

/**
 * The `CARRIERS` setting of every service that sells or prices labels: checked at start, naming a bad id.
 * `purpose` says what the service does with them (the configuration reference shows it); every service that reads
 * it takes the same value.
 */
export const carriersConfig = (purpose = 'the carriers whose services are sold') =>
  Type.Refine(
    Type.String({ default: DEFAULT_CARRIERS, description: `${purpose}; ${CARRIERS_DESCRIPTION}` }),
    (v) => carrierListProblem(v) === null,
    (v) => carrierListProblem(v) ?? '',
  );

const ROUTE_PREFIX = 'route:';

/**
 * Builds the carriers named by a `CARRIERS` value (checked by `carrierListProblem`; a bad one throws).
 *
 * A purchase goes to the first carrier on its service's route. If that carrier answers that it certainly bought
 * nothing (`nothingBought`: its credentials refused, throttled, unreachable), the next carrier on the route is
 * asked. Before a key is sent to a carrier, the carrier is remembered for it (`settings.memory`), and a key seen
 * before goes back to the carrier it was sent to, whatever the route says now: a retried purchase is resolved
 * where it may have happened, so a route change or a fallback never buys one label twice.
 */
export function createCarrierSet(
  value: string,
  settings: CarrierSettings = {},
  registry: readonly CarrierPlugin[] = CARRIER_PLUGINS,
): CarrierSet {
  const problem = carrierListProblem(value, registry);
  if (problem) throw new Error(`CARRIERS=${JSON.stringify(value)}: ${problem}`);
  const plugins = [...new Set(splitIds(value))].map((id) => registry.find((p) => p.id === id) as CarrierPlugin);
  const memory = settings.memory ?? createProcessMemory();
  const rateSlots = settings.rateSlots ?? createProcessRateSlots();
  const gateOf = (id: string) => {
    const rate = settings.rateLimits?.byCarrier[id] ?? settings.rateLimits?.default ?? 0;
    if (rate <= 0) return {};
    const purchaseGate = createRateGate({
      carrier: id,
      ratePerSecond: rate,
      guardMs: RATE_GUARD_MS,
      slots: rateSlots,
      ...(settings.rateClock ? { clock: settings.rateClock } : {}),
      onError: (err) => settings.log?.error({ err, carrier: id }, 'carrier rate slots could not be reserved'),
    });
    return { purchaseGate };
  };
  const adapters = new Map(plugins.map((p) => [p.id, p.create({ ...settings, memory, ...gateOf(p.id) })] as const));
  const adapterOf = (id: string) => adapters.get(id) as ClosableCarrier;

  const services: CarrierService[] = [];
  const routes = new Map<string, string[]>();
  for (const p of plugins) {
    for (const s of adapterOf(p.id).services()) {
      const route = routes.get(s.uid);
      if (route) route.push(p.id);
      else {
        routes.set(s.uid, [p.id]);
        services.push(s);
      }
    }
  }
  const defaults = new Map<string, string[]>([...routes].map(([uid, ids]) => [uid, [...ids]]));
  const first = adapterOf(plugins[0]!.id);
  // A service only one enabled carrier sells can never change hands: its purchases need no memory of where they went.
  const switchable = new Set([...routes].filter(([, ids]) => ids.length > 1).map(([uid]) => uid));

  const routeProblem = (r: ServiceRoute): string | null => {
    if (!routes.has(r.serviceUid)) return `no enabled carrier sells ${r.serviceUid}`;
    if (r.carriers.length === 0) return `${r.serviceUid} needs at least one carrier`;
    for (const id of r.carriers) {
      const adapter = adapters.get(id);
      if (!adapter) return `carrier ${id} is not enabled (CARRIERS=${value})`;
      if (!adapter.services().some((s) => s.uid === r.serviceUid)) return `carrier ${id} does not sell ${r.serviceUid}`;
    }
    if (new Set(r.carriers).size !== r.carriers.length) return `${r.serviceUid} names a carrier twice`;
    return null;
  };

  const routesProblem = (next: readonly ServiceRoute[]) => {
    for (const r of next) {
      const why = routeProblem(r);
      if (why) return why;
    }
    return null;
  };

  // The stored routes: read when a purchase finds the copy older than the refresh period, one read at a time.
  const refreshMs = settings.routeRefreshMs ?? DEFAULT_ROUTE_REFRESH_MS;
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | null = null;
  const applyStored = (stored: readonly ServiceRoute[]) => {
    const next = new Map<string, string[]>([...defaults].map(([uid, ids]) => [uid, [...ids]]));
    for (const r of stored) {
      const why = routeProblem(r);
      // Another process may enable carriers this one has not: its choice stands there, the default here.
      if (why) settings.log?.warn({ serviceUid: r.serviceUid, carriers: r.carriers }, `stored route not used: ${why}`);
      else next.set(r.serviceUid, [...r.carriers]);
    }
    for (const [uid, ids] of next) routes.set(uid, ids);
  };
  const reloadRoutes = (): Promise<void> => {
    const store = settings.routeStore;
    if (!store) return Promise.resolve();
    loading ??= store
      .load()
      .then(applyStored, (err: unknown) => {
        // The routes last read stay; the next purchase asks again.
        settings.log?.error({ err }, 'carrier routes could not be read');
      })
      .finally(() => {
        loadedAt = Date.now();
        loading = null;
      });
    return loading;
  };
  const freshRoutes = () =>
    settings.routeStore && Date.now() - loadedAt >= refreshMs ? reloadRoutes() : (loading ?? undefined);

  /** Capabilities every carrier on some route has: what the set can always do for a label of any of them. */
  const capabilities = [...new Set(plugins.flatMap((p) => adapterOf(p.id).capabilities))].filter((c) =>
    plugins.every((p) => supports(adapterOf(p.id), c as CarrierCapability)),
  ) as CarrierCapability[];

  /** The adapter a label bought earlier belongs to: the one named, else the first enabled one selling its courier. */
  const sellerOf = (req: { carrierId?: string }) => (req.carrierId ? adapters.get(req.carrierId) : first) ?? null;

  async function purchaseLabel(req: LabelRequest): Promise<LabelResult> {
    await freshRoutes();
    const route = routes.get(req.serviceUid);
    // A service no enabled carrier sells goes to the first, which refuses it in its own words.
    if (!route) return first.purchaseLabel(req);
    const remembered = switchable.has(req.serviceUid);
    const memoryKey = `${ROUTE_PREFIX}${req.idempotencyKey}`;
    const earlier = remembered ? await memory.get(memoryKey) : null;
    const order = earlier && adapters.has(earlier) ? [earlier] : route;
    let last: LabelResult | null = null;
    for (const id of order) {
      if (remembered && earlier !== id) await memory.put(memoryKey, id);
      const result = await observed(
        id,
        'purchase',
        () => adapterOf(id).purchaseLabel(req),
        () => 'ok',
      );
      if (result.ok) return { ...result, carrierId: id };
      last = result;
      if (!result.nothingBought) return result;
    }
    return last as LabelResult;
  }

  const unsupported = (what: string) => refusal('NOT_FOUND', what);

  /** Runs one carrier call and reports its result (`observeCarrierResults`), whatever it is. */
  async function observed<R extends { ok: boolean }>(
    carrier: string,
    operation: CarrierResult['operation'],
    call: () => Promise<R>,
    okResult: (r: R) => string,
  ): Promise<R> {
    const report = (result: string) => settings.observeCarrierResults?.({ carrier, operation, result });
    let r: R;
    try {
      r = await call();
    } catch (err) {
      report('ERROR');
      throw err;
    }
    report(r.ok ? okResult(r) : ((r as unknown as { code?: string }).code ?? 'REFUSED'));
    return r;
  }
  /** The plugin id of a label bought earlier: the one named, else the first enabled. */
  const sellerIdOf = (req: { carrierId?: string }) => req.carrierId ?? (plugins[0] as CarrierPlugin).id;
  const refundResult = (r: RefundResult) => (r.ok ? r.status : 'REFUSED');

  return {
    id: plugins.map((p) => p.id).join(','),
    capabilities,
    couriers: [...new Set(plugins.map((p) => p.courier))],
    carriers: plugins,
    services: () => services.map((s) => ({ ...s })),
    purchaseLabel,
    routes: () => [...routes].map(([serviceUid, carriers]) => ({ serviceUid, carriers: [...carriers] })),
    setRoutes(next) {
      const why = routesProblem(next);
      if (why) throw new Error(why);
      for (const r of next) routes.set(r.serviceUid, [...r.carriers]);
    },
    routesProblem,
    async reloadRoutes() {
      // A read under way may have started before the change was saved.
      if (loading) await loading;
      await reloadRoutes();
    },
    adapter: (id) => adapters.get(id) ?? null,
    async voidLabel(req: VoidRequest) {
      const seller = sellerOf(req);
      if (!seller?.voidLabel) return unsupported(`Label ${req.trackingNumber}`);
      return observed(
        sellerIdOf(req),
        'void',
        () => (seller.voidLabel as Required<Carrier>['voidLabel'])(req),
        refundResult,
      );
    },
    async refundStatus(req: VoidRequest) {
      const seller = sellerOf(req);
      if (!seller?.refundStatus) return unsupported(`Label ${req.trackingNumber}`);
      return observed(
        sellerIdOf(req),
        'refund_status',
        () => (seller.refundStatus as Required<Carrier>['refundStatus'])(req),
        refundResult,
      );
    },
    async createScanForm(req) {
      // A form lists labels of one carrier only: it goes to the one that bought them.
      const seller = sellerOf(req);
      if (!seller?.createScanForm) {
        return refusal('SCAN_FORM_REFUSED', `${sellerIdOf(req)} does not make SCAN forms.`);
      }
      return (seller.createScanForm as Required<Carrier>['createScanForm'])(req);
    },
    async track(trackingNumber, opts) {
      const seller = sellerOf(opts ?? {});
      return seller?.track ? seller.track(trackingNumber, opts) : unsupported(`Tracking number ${trackingNumber}`);
    },
    async balances() {
      const figures = await Promise.all(plugins.map((p) => adapterOf(p.id).balance()));
      return plugins.map((p, i) => ({ id: p.id, name: p.name, balanceCents: figures[i] as number }));
    },
    async balance() {
      return (await Promise.all(plugins.map((p) => adapterOf(p.id).balance()))).reduce((sum, cents) => sum + cents, 0);
    },
    async close() {
      await Promise.all([...adapters.values()].map((a) => a.close()));
    },
  };
}

/**
 * The variables of every live carrier account (USPS_*, EASYPOST_*), as TypeBox properties a service that buys or
 * reads carriers spreads into its configuration schema. All optional or defaulted there: `carrierConfigProblems`
 * checks the ones the enabled carriers need when the service starts.
 */
export const CARRIER_ACCOUNTS_CONFIG = { ...USPS_CONFIG, ...EASYPOST_CONFIG };

/**
 * The settings of the enabled live carriers (`CarrierSettings.usps`, `.easypost`) from a configuration read with
 * `CARRIER_ACCOUNTS_CONFIG`; a carrier that is not enabled gets none. Throws naming the variables at fault.
 */
export function carrierAccountSettings(
  carriers: string,
  config: Readonly<Record<string, unknown>>,
): Pick<CarrierSettings, 'usps' | 'easypost'> {
  const ids = new Set(splitIds(carriers));
  const pick = (names: readonly string[]) =>
    Object.fromEntries(names.map((n) => [n, config[n] as string | number | undefined]));
  return {
    ...(ids.has('usps') ? { usps: pick(Object.keys(USPS_CONFIG)) as Partial<UspsConfig> } : {}),
    ...(ids.has('easypost') ? { easypost: easyPostSettings(pick(Object.keys(EASYPOST_CONFIG))) } : {}),
  };
}

/**
 * What the carriers a `CARRIERS` value enables sell, from their plugins, without starting them (no credentials, no
 * connections): each service once, from the first carrier selling it. For services that list services but buy nothing.
 */
export function enabledCarrierServices(
  value: string,
  registry: readonly CarrierPlugin[] = CARRIER_PLUGINS,
): CarrierService[] {
  const problem = carrierListProblem(value, registry);
  if (problem) throw new Error(`CARRIERS=${JSON.stringify(value)}: ${problem}`);
  const seen = new Map<string, CarrierService>();
  for (const id of new Set(splitIds(value))) {
    for (const service of registry.find((p) => p.id === id)?.services ?? []) {
      if (!seen.has(service.uid)) seen.set(service.uid, { ...service });
    }
  }
  return [...seen.values()];
}

/**
 * The configuration check of a service that starts carriers (`loadConfig`'s `check`): every variable the live
 * carriers its `CARRIERS` enables miss or have wrong, never a secret's value.
 */
export const carrierAccountProblems = (
  config: { CARRIERS: string },
  env: Readonly<Record<string, string | undefined>>,
) => carrierConfigProblems(config.CARRIERS, env);

/**
 * The memory of a service that starts carriers but buys nothing (admin: balances, connection checks). It remembers
 * nothing and refuses to: a purchase there is a programming error. It counts as durable so that a carrier refusing a
 * process memory (EasyPost with a production key) still starts for balances.
 */
export const noPurchasesMemory = (service: string): PurchaseMemory => {
  const refuse = async (): Promise<never> => {
    throw new Error(`${service} buys no labels: nothing may be remembered for a purchase here`);
  };
  return { durable: true, get: async () => null, put: refuse, keep: refuse };
};
