import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AdminDashboardReply, CarrierBalanceReply } from './admin-dashboard-api';

export interface AdminDashboardState {
  figures: AdminDashboardReply | null;
  isLoading: boolean;
  /** The last read failed; the figures shown (if any) are from an earlier one. */
  error: string | null;
  /** Read apart from the figures: a carrier that does not answer leaves the rest of the dashboard alone. */
  carrierBalance: {
    reply: CarrierBalanceReply | null;
    isLoading: boolean;
    /** The last read failed; the balance shown (if any) is from an earlier one. */
    error: string | null;
  };
}

const initialState: AdminDashboardState = {
  figures: null,
  isLoading: false,
  error: null,
  carrierBalance: { reply: null, isLoading: false, error: null },
};

export const adminDashboardSlice = createSlice({
  name: 'adminDashboard',
  initialState,
  reducers: {
    /** The dashboard is on screen: read now and every 30 s until it closes. */
    adminDashboardOpened(state) {
      state.isLoading = state.figures === null;
      state.error = null;
      state.carrierBalance.isLoading = state.carrierBalance.reply === null;
      state.carrierBalance.error = null;
    },
    adminDashboardClosed(state) {
      state.isLoading = false;
      state.carrierBalance.isLoading = false;
    },
    adminDashboardLoaded(state, action: PayloadAction<AdminDashboardReply>) {
      state.figures = action.payload;
      state.isLoading = false;
      state.error = null;
    },
    adminDashboardFailed(state, action: PayloadAction<string>) {
      state.isLoading = false;
      state.error = action.payload;
    },
    carrierBalanceLoaded(state, action: PayloadAction<CarrierBalanceReply>) {
      state.carrierBalance = { reply: action.payload, isLoading: false, error: null };
    },
    carrierBalanceFailed(state, action: PayloadAction<string>) {
      state.carrierBalance.isLoading = false;
      state.carrierBalance.error = action.payload;
    },
  },
});

export const {
  adminDashboardOpened,
  adminDashboardClosed,
  adminDashboardLoaded,
  adminDashboardFailed,
  carrierBalanceLoaded,
  carrierBalanceFailed,
} = adminDashboardSlice.actions;
export const adminDashboardReducer = adminDashboardSlice.reducer;

export const selectAdminDashboard = (state: { adminDashboard: AdminDashboardState }) => state.adminDashboard;
