import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { OrderListItem } from './orders-api';

export interface OrdersState {
  isLoading: boolean;
  orders: OrderListItem[];
}

const initialState: OrdersState = { isLoading: false, orders: [] };

export const ordersSlice = createSlice({
  name: 'orders',
  initialState,
  reducers: {
    ordersRequested(state, _action: PayloadAction<string>) {
      state.isLoading = true;
    },
    ordersLoaded(state, action: PayloadAction<OrderListItem[]>) {
      state.orders = action.payload;
      state.isLoading = false;
    },
  },
});

export const { ordersRequested, ordersLoaded } = ordersSlice.actions;
export const ordersReducer = ordersSlice.reducer;
