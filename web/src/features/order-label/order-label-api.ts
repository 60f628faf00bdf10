import type {
  Address,
  AvailableService,
  OrderCreateBody,
  OrderCreateReply,
  QuoteBody,
  QuoteReply,
} from '@flatship/proto';
import { getJson, postJson } from '../../app/http';
import { normaliseService } from './order-label-form';

const id = (userId: string) => encodeURIComponent(userId);

export type { Address, AvailableService };

export const orderLabelApi = {
  /**
   * The services the user may buy, for the single-label and the bulk screen alike, with the spec's defaults
   * (category 'Other', maxWeight 70) filled in where an entry leaves them out.
   */
  availableServices: async (userId: string): Promise<AvailableService[]> =>
    (await getJson<Partial<AvailableService>[]>(`userServices/${id(userId)}/available`))
      .map(normaliseService)
      .filter((s): s is AvailableService => s !== null),
  /** The price of one shipment or of a whole bulk order. */
  quote: (body: QuoteBody) => postJson<Partial<QuoteReply>>('orders/price/v2/bulk', body),
  /** The key makes a retried purchase (after a lost answer) buy one label, not two. */
  createOrder: (body: OrderCreateBody, idempotencyKey: string) =>
    postJson<Partial<OrderCreateReply>>('orders/v2', body, { 'Idempotency-Key': idempotencyKey }),
};
