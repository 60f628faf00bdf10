import { createAction } from '@reduxjs/toolkit';

export interface BulkOrderInitializedPayload {
  orderId: string;
  totalCount: number;
  status?: 'processing';
}

/**
 * A bulk order was just submitted: show the progress window for it and start
 * the clock. The start time rides in `meta` so the reducer stays pure while
 * callers pass only the order.
 */
export const bulkOrderInitialized = createAction(
  'bulkProgress/bulkOrderInitialized',
  (payload: BulkOrderInitializedPayload) => ({ payload, meta: { startTime: Date.now() } }),
);
