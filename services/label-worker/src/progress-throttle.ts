import type { BulkOrderRecord, ProgressNotifier } from '@flatship/orders/worker';
import { progressOf } from '@flatship/orders/worker';

interface Pending {
  latest: BulkOrderRecord;
  timer: NodeJS.Timeout | null;
  lastSentAt: number;
}

export interface ProgressThrottle extends ProgressNotifier {
  /** Sends what is waiting now (shutdown). */
  flush(): Promise<void>;
}

/**
 * At most one `bulk.progress` per order every `intervalMs`, always ending with
 * the latest counts: an update inside the window is held and sent when it
 * closes. These are live hints for the browser; the final event of an order
 * goes through the outbox, so losing one of these loses nothing.
 */
export function createProgressThrottle(
  send: (event: ReturnType<typeof progressOf>) => Promise<void>,
  intervalMs: number,
  log: { warn(obj: object, msg?: string): void },
  now: () => number = Date.now,
): ProgressThrottle {
  const orders = new Map<string, Pending>();
  const inFlight = new Set<Promise<void>>();

  const emit = (p: Pending) => {
    p.timer = null;
    p.lastSentAt = now();
    const sent = send(progressOf(p.latest))
      .catch((err: unknown) => log.warn({ err, orderId: p.latest.id }, 'bulk.progress not sent'))
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  };

  return {
    notify(order) {
      const p = orders.get(order.id) ?? { latest: order, timer: null, lastSentAt: 0 };
      orders.set(order.id, p);
      // Rows settle concurrently: keep the snapshot that has seen the most.
      if (order.processedCount + order.failedCount >= p.latest.processedCount + p.latest.failedCount) p.latest = order;
      if (p.timer) return;
      const wait = p.lastSentAt + intervalMs - now();
      if (wait <= 0) emit(p);
      else {
        p.timer = setTimeout(() => emit(p), wait);
        p.timer.unref();
      }
      // Forget orders that have been quiet for a while so the map does not grow forever.
      if (orders.size > 1000) {
        for (const [id, q] of orders) if (!q.timer && now() - q.lastSentAt > 60_000) orders.delete(id);
      }
    },
    finished(orderId) {
      const p = orders.get(orderId);
      if (p?.timer) clearTimeout(p.timer);
      orders.delete(orderId);
    },
    async flush() {
      for (const p of orders.values()) {
        if (p.timer) {
          clearTimeout(p.timer);
          emit(p);
        }
      }
      await Promise.all([...inFlight]);
    },
  };
}
