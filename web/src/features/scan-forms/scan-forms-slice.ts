import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ScanFormsReply } from './scan-forms-api';

export interface ScanFormsState {
  /** What the server last said; null before the first answer. */
  data: ScanFormsReply | null;
  isLoading: boolean;
  error: string | null;
  /** Bulk orders whose form is being made: their buttons are disabled and say so. */
  busyOrders: string[];
  /** Today's form is being made. */
  isTodayBusy: boolean;
}

const initialState: ScanFormsState = { data: null, isLoading: false, error: null, busyOrders: [], isTodayBusy: false };

export const scanFormsSlice = createSlice({
  name: 'scanForms',
  initialState,
  reducers: {
    scanFormsRequested(state, _action: PayloadAction<string>) {
      state.isLoading = true;
    },
    scanFormsLoaded(state, action: PayloadAction<ScanFormsReply>) {
      state.data = action.payload;
      state.isLoading = false;
      state.error = null;
    },
    scanFormsFailed(state, action: PayloadAction<string>) {
      state.isLoading = false;
      state.error = action.payload;
    },
    /** A form for a bulk order's labels; `userId` is whose list to read again after. */
    orderScanFormRequested(state, action: PayloadAction<{ orderId: string; userId: string }>) {
      if (!state.busyOrders.includes(action.payload.orderId)) state.busyOrders.push(action.payload.orderId);
    },
    orderScanFormFinished(state, action: PayloadAction<string>) {
      state.busyOrders = state.busyOrders.filter((id) => id !== action.payload);
    },
    todayScanFormRequested(state, _action: PayloadAction<{ userId: string }>) {
      state.isTodayBusy = true;
    },
    todayScanFormFinished(state) {
      state.isTodayBusy = false;
    },
  },
});

export const {
  scanFormsRequested,
  scanFormsLoaded,
  scanFormsFailed,
  orderScanFormRequested,
  orderScanFormFinished,
  todayScanFormRequested,
  todayScanFormFinished,
} = scanFormsSlice.actions;
export const scanFormsReducer = scanFormsSlice.reducer;
