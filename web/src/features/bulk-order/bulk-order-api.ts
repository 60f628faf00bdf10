import type { BulkInitReply, BulkProcessBody, BulkProcessReply } from '@flatship/proto';
import { postJson } from '../../app/http';

const id = (userId: string) => encodeURIComponent(userId);

/** Public: the browser downloads it straight from the link. */
export const BULK_TEMPLATE_URL = '/api/orders/file/template';

export const bulkOrderApi = {
  init: (userId: string) => postJson<Partial<BulkInitReply>>('orders/bulk/init', { userId }),
  process: (userId: string, body: BulkProcessBody) =>
    postJson<BulkProcessReply>(`orders/bulk/process/${id(userId)}`, body),
};
