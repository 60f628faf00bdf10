import type {
  Address,
  AvailableService,
  OrderCreateBody,
  OrderCreateReply,
  QuoteBody,
  QuoteReply,
} from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

const id = (userId: string) => encodeURIComponent(userId);

export type { Address, AvailableService };

export const orderLabelApi = {
  /**
   * The services the user may buy, for the single-label and the bulk screen. Read defensively: a list, or (older
   * servers) a map of category → list, whose entries may omit category and maxWeight (normaliseService fills them in).
   */
  availableServices: (userId: string) => getJson<unknown>(`userServices/${id(userId)}/available`),
  /** The price of one shipment or of a whole bulk order. */
  quote: (body: QuoteBody) => postJson<Partial<QuoteReply>>('orders/price/v2/bulk', body),
  /** The key makes a retried purchase (after a lost answer) buy one label, not two. */
  createOrder: (body: OrderCreateBody, idempotencyKey: string) =>
    postJson<Partial<OrderCreateReply>>('orders/v2', body, { 'Idempotency-Key': idempotencyKey }),
};
