import { AppError, type AuthContext } from '@flatship/kit';
import { BULK_MESSAGES } from './bulk-messages';
import type { BulkOrderRecord, BulkRepo } from './ports';

/** The order, for its owner or an admin; anyone else learns nothing, not even that it exists. */
export async function visibleOrder(
  deps: { bulk: BulkRepo },
  auth: AuthContext,
  orderId: string,
): Promise<BulkOrderRecord> {
  const order = await deps.bulk.findById(orderId);
  if (!order?.submittedAt || (order.userId !== auth.userId && auth.role !== 'admin')) {
    throw new AppError('NOT_FOUND', BULK_MESSAGES.notFound);
  }
  return order;
}
