import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BatchOrder } from './batch-orders-api';

export interface BatchOrdersState {
  isLoading: boolean;
  orders: BatchOrder[];
  error: string | null;
  /** Ids whose retry or fix is in flight: their buttons are disabled. */
  busy: string[];
}

const initialState: BatchOrdersState = { isLoading: false, orders: [], error: null, busy: [] };

export const batchOrdersSlice = createSlice({
  name: 'batchOrders',
  initialState,
  reducers: {
    batchOrdersRequested(state, _action: PayloadAction<string>) {
      state.isLoading = true;
    },
    batchOrdersLoaded(state, action: PayloadAction<BatchOrder[]>) {
      state.orders = action.payload;
      state.isLoading = false;
      state.error = null;
    },
    batchOrdersFailed(state, action: PayloadAction<string>) {
      state.isLoading = false;
      state.error = action.payload;
    },
    batchRetryRequested(state, action: PayloadAction<{ orderId: string; userId: string }>) {
      if (!state.busy.includes(action.payload.orderId)) state.busy.push(action.payload.orderId);
    },
    batchFixRequested(state, action: PayloadAction<{ orderId: string; userId: string }>) {
      if (!state.busy.includes(action.payload.orderId)) state.busy.push(action.payload.orderId);
    },
    batchActionFinished(state, action: PayloadAction<string>) {
      state.busy = state.busy.filter((id) => id !== action.payload);
    },
  },
});

export const {
  batchOrdersRequested,
  batchOrdersLoaded,
  batchOrdersFailed,
  batchRetryRequested,
  batchFixRequested,
  batchActionFinished,
} = batchOrdersSlice.actions;
export const batchOrdersReducer = batchOrdersSlice.reducer;
