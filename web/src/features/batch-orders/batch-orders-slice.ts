import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BatchOrder } from './batch-orders-api';

export interface BatchOrdersState {
  isLoading: boolean;
  orders: BatchOrder[];
  error: string | null;
  /** Ids whose retry, fix or Force Recovery is in flight: their buttons are disabled. */
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
    /** Force Recovery of an order whose files are stuck; `userId` is the order's owner. */
    batchForceRecoveryRequested(state, action: PayloadAction<{ orderId: string; userId: string }>) {
      if (!state.busy.includes(action.payload.orderId)) state.busy.push(action.payload.orderId);
    },
    /** The order as Force Recovery left it, shown until the list reloads. */
    batchOrderRecovered(state, action: PayloadAction<{ orderId: string; changes: Partial<BatchOrder> }>) {
      state.orders = state.orders.map((o) =>
        o._id === action.payload.orderId ? { ...o, ...action.payload.changes } : o,
      );
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
  batchForceRecoveryRequested,
  batchOrderRecovered,
  batchActionFinished,
} = batchOrdersSlice.actions;
export const batchOrdersReducer = batchOrdersSlice.reducer;
