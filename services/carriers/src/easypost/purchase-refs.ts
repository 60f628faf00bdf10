/**
 * Where a purchase's EasyPost shipment id is kept between attempts. EasyPost has no idempotency key: a purchase
 * that is sent twice buys twice, unless the second attempt finds the shipment the first one created. So the
 * adapter stores the shipment id under the purchase's idempotency key BEFORE it buys, and a retried purchase (the
 * same key, in any process, after any crash) looks that shipment up instead of creating another.
 *
 * The caller provides the store; a service backs it with a table (key primary key, insert on conflict do nothing,
 * then read back). `createMemoryPurchaseRefs` is for tests and for test-mode keys.
 */
export interface PurchaseRefs {
  /** The shipment id stored for this key, or null. */
  get(key: string): Promise<string | null>;
  /**
   * Stores `shipmentId` for `key` unless one is stored already, and answers the id now held for the key: the first
   * write wins, so two attempts racing on one key end up buying the same shipment.
   */
  put(key: string, shipmentId: string): Promise<string>;
  /** True when what is stored outlives the process (a table). A production key is refused without it. */
  readonly durable: boolean;
}

/** A store in this process's memory: it forgets on restart, so it is not durable. */
export function createMemoryPurchaseRefs(): PurchaseRefs & { readonly size: number } {
  const held = new Map<string, string>();
  return {
    durable: false,
    get size() {
      return held.size;
    },
    async get(key) {
      return held.get(key) ?? null;
    },
    async put(key, shipmentId) {
      const existing = held.get(key);
      if (existing !== undefined) return existing;
      held.set(key, shipmentId);
      return shipmentId;
    },
  };
}
