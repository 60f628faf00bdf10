import { AppError, type InternalClient, isAppError, statusOf } from '@flatship/kit';
import { type BulkProgressEvent, BulkProgressEventSchema } from '@flatship/proto';
import { Value } from 'typebox/value';
import { GATEWAY_MESSAGES } from './messages';

interface WarnLogger {
  warn(obj: object, msg?: string): void;
}

/** A bulk order's owner and current progress, or null when orders does not know it. */
export type OrderLookup = (orderId: string) => Promise<BulkProgressEvent | null>;

/**
 * Reads a bulk order from orders (`GET /internal/bulk-orders/:id`), whose
 * answer has the fields of a `bulk.progress` event. 404 means no such order.
 * Anything else (orders down, wrong secret, an answer of the wrong shape) is
 * ours, not the client's: it becomes SERVICE_UNAVAILABLE and the cause is logged.
 */
export function createOrderLookup(orders: InternalClient, log: WarnLogger, timeoutMs = 3000): OrderLookup {
  return async (orderId) => {
    let answer: unknown;
    try {
      answer = await orders.request<unknown>('GET', `/internal/bulk-orders/${encodeURIComponent(orderId)}`, {
        timeoutMs,
      });
    } catch (e) {
      if (isAppError(e) && statusOf(e.code) === 404) return null;
      log.warn({ err: e, orderId }, 'could not read bulk order from orders');
      throw new AppError('SERVICE_UNAVAILABLE', GATEWAY_MESSAGES.orderUpdatesUnavailable);
    }
    if (!Value.Check(BulkProgressEventSchema, answer)) {
      log.warn({ orderId }, 'orders answered a bulk order of an unexpected shape');
      throw new AppError('SERVICE_UNAVAILABLE', GATEWAY_MESSAGES.orderUpdatesUnavailable);
    }
    return answer;
  };
}
