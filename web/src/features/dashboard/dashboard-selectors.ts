import type { RootState } from '../../app/store';

export const selectDashboardLoading = (state: RootState) => state.dashboard.isLoading;
export const selectTotalOrders = (state: RootState) => state.dashboard.totalOrders;
export const selectRecentOrders = (state: RootState) => state.dashboard.recentOrders;
export const selectRecentDeposits = (state: RootState) => state.dashboard.recentDeposits;
