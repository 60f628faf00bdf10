import type { RootState } from '../../app/store';

export const selectOrdersLoading = (state: RootState) => state.orders.isLoading;
export const selectOrders = (state: RootState) => state.orders.orders;
export const selectOrdersTrackingFilter = (state: RootState) => state.orders.trackingFilter ?? null;
