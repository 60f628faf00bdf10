import { createAction } from '@reduxjs/toolkit';

export interface BulkOrderInitializedPayload {
  orderId: string;
  totalCount: number;
  status?: 'processing';
}

/** A bulk order was just submitted: show the progress window for it and start the clock. */
export const bulkOrderInitialized = createAction<BulkOrderInitializedPayload>('bulkProgress/bulkOrderInitialized');
