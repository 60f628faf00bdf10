import type { RootState } from '../../app/store';

export const selectSkus = (state: RootState) => state.skus.items;
export const selectSkusStatus = (state: RootState) => state.skus.status;
