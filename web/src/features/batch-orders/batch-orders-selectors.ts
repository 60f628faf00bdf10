import type { RootState } from '../../app/store';

export const selectBatchOrders = (state: RootState) => state.batchOrders.orders;
export const selectBatchOrdersLoading = (state: RootState) => state.batchOrders.isLoading;
export const selectBatchOrdersError = (state: RootState) => state.batchOrders.error;
export const selectBatchBusy = (state: RootState) => state.batchOrders.busy;
