import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RecentDeposit, RecentOrder } from './dashboard-api';

export interface DashboardState {
  isLoading: boolean;
  totalOrders: number;
  recentOrders: RecentOrder[];
  recentDeposits: RecentDeposit[];
}

const initialState: DashboardState = { isLoading: false, totalOrders: 0, recentOrders: [], recentDeposits: [] };

export const dashboardSlice = createSlice({
  name: 'dashboard',
  initialState,
  reducers: {
    dashboardRequested(state, _action: PayloadAction<string>) {
      state.isLoading = true;
    },
    totalOrdersLoaded(state, action: PayloadAction<number>) {
      state.totalOrders = action.payload;
    },
    recentOrdersLoaded(state, action: PayloadAction<RecentOrder[]>) {
      state.recentOrders = action.payload;
    },
    recentDepositsLoaded(state, action: PayloadAction<RecentDeposit[]>) {
      state.recentDeposits = action.payload;
    },
    dashboardLoadFinished(state) {
      state.isLoading = false;
    },
  },
});

export const {
  dashboardRequested,
  totalOrdersLoaded,
  recentOrdersLoaded,
  recentDepositsLoaded,
  dashboardLoadFinished,
} = dashboardSlice.actions;
export const dashboardReducer = dashboardSlice.reducer;
