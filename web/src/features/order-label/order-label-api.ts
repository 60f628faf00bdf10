import type {
  Address,
  AvailableService,
  OrderCreateBody,
  OrderCreateReply,
  QuoteBody,
  QuoteReply,
  SavedAddressReply,
} from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

const id = (userId: string) => encodeURIComponent(userId);

export type { Address, AvailableService };

export const orderLabelApi = {
  // Older servers omit category and maxWeight: the saga fills in the spec's defaults.
  availableServices: (userId: string) => getJson<Partial<AvailableService>[]>(`userServices/${id(userId)}/available`),
  savedAddresses: (userId: string) => getJson<Partial<SavedAddressReply>>(`auth/get-address/${id(userId)}`),
  quote: (body: QuoteBody) => postJson<Partial<QuoteReply>>('orders/price/v2/bulk', body),
  /** The key makes a retried purchase (after a lost answer) buy one label, not two. */
  createOrder: (body: OrderCreateBody, idempotencyKey: string) =>
    postJson<Partial<OrderCreateReply>>('orders/v2', body, { 'Idempotency-Key': idempotencyKey }),
};
