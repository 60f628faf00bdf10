import type { RootState } from '../../app/store';

export const selectBulkProgress = (state: RootState) => state.bulkProgress;
export const selectDownloads = (state: RootState) => state.bulkDownloads.active;
