import type { TrackingStage } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { OrderListItem } from './orders-api';

export interface OrdersState {
  isLoading: boolean;
  orders: OrderListItem[];
  /** Only labels at this tracking stage (the page's `?tracking=`); null for every label. */
  trackingFilter: TrackingStage | null;
}

const initialState: OrdersState = { isLoading: false, orders: [], trackingFilter: null };

export const ordersSlice = createSlice({
  name: 'orders',
  initialState,
  reducers: {
    ordersRequested(state, _action: PayloadAction<string>) {
      state.isLoading = true;
    },
    /** The list is then asked for again (`ordersRequested`) with this filter; every later load keeps it. */
    ordersTrackingFilterChosen(state, action: PayloadAction<TrackingStage | null>) {
      state.trackingFilter = action.payload;
    },
    ordersLoaded(state, action: PayloadAction<OrderListItem[]>) {
      state.orders = action.payload;
      state.isLoading = false;
    },
  },
});

export const { ordersRequested, ordersLoaded, ordersTrackingFilterChosen } = ordersSlice.actions;
export const ordersReducer = ordersSlice.reducer;
