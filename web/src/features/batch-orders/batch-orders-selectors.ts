import type { RootState } from '../../app/store';

export const selectBatchOrders = (state: RootState) => state.batchOrders.orders;
export const selectBatchOrdersLoading = (state: RootState) => state.batchOrders.isLoading;
export const selectBatchBusy = (state: RootState) => state.batchOrders.busy;
