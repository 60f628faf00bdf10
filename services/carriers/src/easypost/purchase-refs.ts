import type { PurchaseMemory } from '../port';

/**
 * EasyPost has no idempotency key: a purchase sent twice buys twice, unless the second attempt finds the shipment
 * the first one created. So the adapter keeps the shipment id in the buying service's `PurchaseMemory` under the
 * purchase's idempotency key BEFORE it buys, and a retried purchase (the same key, in any process, after any crash)
 * looks that shipment up instead of creating another.
 */
export interface ShipmentIds {
  /** The id kept for this key, or null. */
  get(key: string): Promise<string | null>;
  /**
   * Keeps `id` for `key` unless one is kept already, and answers the id now held: the first one kept wins, so two
   * attempts on one key end up with the same shipment (`PurchaseMemory.keep`).
   */
  hold(key: string, id: string): Promise<string>;
}

/** Ids kept under `namespace` (`easypost:shipment:`, `easypost:scan-form:`), apart from the carrier set's keys. */
export function shipmentIds(memory: PurchaseMemory, namespace: string): ShipmentIds {
  return {
    get: (key) => memory.get(`${namespace}${key}`),
    hold: (key, id) => memory.keep(`${namespace}${key}`, id),
  };
}

const queues = new WeakMap<PurchaseMemory, Map<string, Promise<unknown>>>();

/**
 * Runs `task` once every earlier task for the same key on the same memory in this process has ended: two attempts
 * on one key in one process (a replay racing the original) never both find nothing kept and create two shipments.
 */
export function oneAtATime<T>(memory: PurchaseMemory, key: string, task: () => Promise<T>): Promise<T> {
  let byKey = queues.get(memory);
  if (!byKey) {
    byKey = new Map();
    queues.set(memory, byKey);
  }
  const earlier = byKey.get(key) ?? Promise.resolve();
  const run = earlier.then(task, task);
  const tail = run.catch(() => undefined);
  byKey.set(key, tail);
  void tail.then(() => {
    if (byKey.get(key) === tail) byKey.delete(key);
  });
  return run;
}
