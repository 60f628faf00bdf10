import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AdminDashboardReply } from './admin-dashboard-api';

export interface AdminDashboardState {
  figures: AdminDashboardReply | null;
  isLoading: boolean;
  /** The last read failed; the figures shown (if any) are from an earlier one. */
  error: string | null;
}

const initialState: AdminDashboardState = { figures: null, isLoading: false, error: null };

export const adminDashboardSlice = createSlice({
  name: 'adminDashboard',
  initialState,
  reducers: {
    /** The dashboard is on screen: read now and every 30 s until it closes. */
    adminDashboardOpened(state) {
      state.isLoading = state.figures === null;
      state.error = null;
    },
    adminDashboardClosed(state) {
      state.isLoading = false;
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
  },
});

export const { adminDashboardOpened, adminDashboardClosed, adminDashboardLoaded, adminDashboardFailed } =
  adminDashboardSlice.actions;
export const adminDashboardReducer = adminDashboardSlice.reducer;

export const selectAdminDashboard = (state: { adminDashboard: AdminDashboardState }) => state.adminDashboard;
