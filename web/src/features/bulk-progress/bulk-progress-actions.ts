import { createAction } from '@reduxjs/toolkit';

export interface BulkOrderInitializedPayload {
  orderId: string;
  totalCount: number;
  status?: 'processing';
  /** The marketplace the rows came from (`shopify`): what the window says about a tracking file. */
  source?: string | null;
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
