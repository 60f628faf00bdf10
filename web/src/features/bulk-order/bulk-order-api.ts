import type {
  AddSkuBody,
  BulkProcessBody,
  QuoteBody,
  QuoteReply,
  SavedAddressReply,
  SkuDataReply,
} from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

const id = (userId: string) => encodeURIComponent(userId);

/** Public: the browser downloads it straight from the link. */
export const BULK_TEMPLATE_URL = '/api/orders/file/template';

export interface BulkInitReply {
  data?: { orderId?: string };
}

export const bulkOrderApi = {
  // A list, or (older servers) a map of category → list: the saga flattens either.
  availableServices: (userId: string) => getJson<unknown>(`userServices/${id(userId)}/available`),
  savedAddresses: (userId: string) => getJson<Partial<SavedAddressReply>>(`auth/get-address/${id(userId)}`),
  skus: (userId: string) => getJson<Partial<SkuDataReply>>(`auth/get-sku/${id(userId)}`),
  saveSkus: (userId: string, body: AddSkuBody) => postJson<unknown>(`auth/add-sku/${id(userId)}`, body),
  quote: (body: QuoteBody) => postJson<Partial<QuoteReply>>('orders/price/v2/bulk', body),
  init: (userId: string) => postJson<BulkInitReply>('orders/bulk/init', { userId }),
  process: (userId: string, body: BulkProcessBody) => postJson<unknown>(`orders/bulk/process/${id(userId)}`, body),
};
