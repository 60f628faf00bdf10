import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BatchLabel } from './refunds-api';

export interface RefundsState {
  /** Labels whose refund request is in flight: their buttons are disabled. */
  busyLabels: string[];
  /** Batches whose "refund every unused label" is in flight. */
  busyOrders: string[];
  /** The batch whose labels are shown (Batch Orders' Labels dialog); null when closed. */
  batch: { orderId: string | null; labels: BatchLabel[]; isLoading: boolean; error: string | null };
}

const initialState: RefundsState = {
  busyLabels: [],
  busyOrders: [],
  batch: { orderId: null, labels: [], isLoading: false, error: null },
};

const without = (list: string[], id: string) => list.filter((x) => x !== id);

export const refundsSlice = createSlice({
  name: 'refunds',
  initialState,
  reducers: {
    /** One label; `orderId` when it is a batch's, so that batch's views are refreshed after. */
    labelRefundRequested(state, action: PayloadAction<{ labelId: string; orderId?: string | null }>) {
      if (!state.busyLabels.includes(action.payload.labelId)) state.busyLabels.push(action.payload.labelId);
    },
    labelRefundFinished(state, action: PayloadAction<string>) {
      state.busyLabels = without(state.busyLabels, action.payload);
    },
    /** Every unused label of a batch. */
    batchRefundRequested(state, action: PayloadAction<{ orderId: string }>) {
      if (!state.busyOrders.includes(action.payload.orderId)) state.busyOrders.push(action.payload.orderId);
    },
    batchRefundFinished(state, action: PayloadAction<string>) {
      state.busyOrders = without(state.busyOrders, action.payload);
    },
    batchLabelsOpened(state, action: PayloadAction<string>) {
      state.batch = { orderId: action.payload, labels: [], isLoading: true, error: null };
    },
    /** Reads the open batch's labels again (after a refund). */
    batchLabelsReloaded(state) {
      if (state.batch.orderId) state.batch.isLoading = true;
    },
    batchLabelsLoaded(state, action: PayloadAction<{ orderId: string; labels: BatchLabel[] }>) {
      if (state.batch.orderId !== action.payload.orderId) return;
      state.batch.labels = action.payload.labels;
      state.batch.isLoading = false;
      state.batch.error = null;
    },
    batchLabelsFailed(state, action: PayloadAction<{ orderId: string; error: string }>) {
      if (state.batch.orderId !== action.payload.orderId) return;
      state.batch.isLoading = false;
      state.batch.error = action.payload.error;
    },
    batchLabelsClosed(state) {
      state.batch = initialState.batch;
    },
  },
});

export const {
  labelRefundRequested,
  labelRefundFinished,
  batchRefundRequested,
  batchRefundFinished,
  batchLabelsOpened,
  batchLabelsReloaded,
  batchLabelsLoaded,
  batchLabelsFailed,
  batchLabelsClosed,
} = refundsSlice.actions;
export const refundsReducer = refundsSlice.reducer;
