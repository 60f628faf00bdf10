import { Type } from 'typebox';
// The carrier registry: every carrier the platform can sell, one line each, and the composition of the enabled ones
// into the one carrier the services talk to. Adding a carrier is a folder with its plugin plus a line in
// `CARRIER_PLUGINS`.
import type { CarrierCallObservation } from './http/carrier-http';
import type { Carrier, CarrierService, LabelRequest, LabelResult } from './port';
import type { UspsConfig } from './usps-api/config';
import type { CarrierLogger } from './usps-api/usps-session';

export { DEFAULT_SANDBOX_CARRIER_BALANCE } from './sandbox/balance';

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
  /** The USPS_* variables (`USPS_CONFIG`), for the live USPS carrier; checked when it is created. */
  usps?: Partial<UspsConfig>;
  /** Where live carriers write what their carrier said (refusals, errors); never shown to customers. */
  log?: CarrierLogger;
  /** Every HTTP call a live carrier makes, for metrics (`CarrierCallObservation`). */
  observeCarrierCalls?: (o: CarrierCallObservation) => void;
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
  /** The carrier's columns in Amazon's shipping-confirmation file. */
  readonly amazon: { carrierCode: string; carrierName: string };
  /** What the carrier sells; the same list its adapter's `services()` gives. */
  readonly services: readonly CarrierService[];
  create(settings: CarrierSettings): ClosableCarrier;
}

/** Every carrier there is, in the order a list of them is shown. Enabled ones are chosen by `CARRIERS`. */
export const CARRIER_PLUGINS: readonly CarrierPlugin[] = [sandboxUspsPlugin, testParcelPlugin, uspsPlugin];

/** `CARRIERS` when it is not set: the built-in sandbox. */
export const DEFAULT_CARRIERS = sandboxUspsPlugin.id;

export const CARRIERS_DESCRIPTION = `carriers to sell, comma-separated, from: ${CARRIER_PLUGINS.map((p) => p.id).join(', ')}`;

const splitIds = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** What is wrong with a `CARRIERS` value, naming the id at fault; null when it is fine. */
export function carrierListProblem(value: string): string | null {
  const ids = splitIds(value);
  if (ids.length === 0) return 'no carrier given';
  const unknown = ids.filter((id) => !CARRIER_PLUGINS.some((p) => p.id === id));
  if (unknown.length > 0) {
    const names = unknown.map((id) => `"${id}"`).join(', ');
    return `unknown carrier ${names}; known carriers: ${CARRIER_PLUGINS.map((p) => p.id).join(', ')}`;
  }
  const plugins = ids.map((id) => CARRIER_PLUGINS.find((p) => p.id === id) as CarrierPlugin);
  for (const [i, p] of plugins.entries()) {
    const same = plugins.slice(0, i).find((q) => q.courier === p.courier);
    if (same && same.id !== p.id) return `carriers "${same.id}" and "${p.id}" both sell ${p.courier}; enable one`;
  }
  return null;
}

/** The registered carrier that sells under a courier (enabled or not: old labels keep their carrier). */
export function findCarrierByCourier(courier: string): CarrierPlugin | null {
  return CARRIER_PLUGINS.find((p) => p.courier === courier) ?? null;
}

/** The courier that sells a service, from every registered carrier; null for a service no carrier has. */
export function courierOfService(serviceUid: string): string | null {
  return CARRIER_PLUGINS.find((p) => p.services.some((s) => s.uid === serviceUid))?.courier ?? null;
}

/** The enabled carriers, composed into one carrier: services of all of them, each purchase to its service's seller. */
export interface CarrierSet extends ClosableCarrier {
  /** The enabled carriers' couriers, in `CARRIERS` order; the first is the default for a new order row. */
  readonly couriers: readonly string[];
  readonly carriers: readonly CarrierPlugin[];
  /** The account balance with each enabled carrier, in cents, in `CARRIERS` order. */
  balances(): Promise<{ id: string; name: string; balanceCents: number }[]>;
}

/** The `CARRIERS` setting of every service that sells or prices labels: checked at start, naming a bad id. */
export const carriersConfig = () =>
  Type.Refine(
    Type.String({ default: DEFAULT_CARRIERS, description: CARRIERS_DESCRIPTION }),
    (v) => carrierListProblem(v) === null,
    (v) => carrierListProblem(v) ?? '',
  );

/** Builds the carriers named by a `CARRIERS` value (checked by `carrierListProblem`; a bad one throws). */
export function createCarrierSet(value: string, settings: CarrierSettings = {}): CarrierSet {
  const problem = carrierListProblem(value);
  if (problem) throw new Error(`CARRIERS=${JSON.stringify(value)}: ${problem}`);
  const plugins = [...new Set(splitIds(value))].map((id) => CARRIER_PLUGINS.find((p) => p.id === id) as CarrierPlugin);
  const adapters = plugins.map((p) => p.create(settings));
  const bySeller = new Map<string, ClosableCarrier>();
  for (const adapter of adapters) {
    for (const s of adapter.services()) {
      const other = bySeller.get(s.uid);
      if (other) throw new Error(`service ${s.uid} is sold by both ${other.id} and ${adapter.id}`);
      bySeller.set(s.uid, adapter);
    }
  }
  const first = adapters[0] as ClosableCarrier;
  return {
    id: plugins.map((p) => p.id).join(','),
    capabilities: [],
    couriers: plugins.map((p) => p.courier),
    carriers: plugins,
    services: () => adapters.flatMap((a) => a.services()),
    purchaseLabel(req: LabelRequest): Promise<LabelResult> {
      // A service no enabled carrier sells goes to the first, which refuses it in its own words.
      return (bySeller.get(req.serviceUid) ?? first).purchaseLabel(req);
    },
    async balances() {
      const figures = await Promise.all(adapters.map((a) => a.balance()));
      return plugins.map((p, i) => ({ id: p.id, name: p.name, balanceCents: figures[i] as number }));
    },
    async balance() {
      return (await Promise.all(adapters.map((a) => a.balance()))).reduce((sum, cents) => sum + cents, 0);
    },
    async close() {
      await Promise.all(adapters.map((a) => a.close()));
    },
  };
}
