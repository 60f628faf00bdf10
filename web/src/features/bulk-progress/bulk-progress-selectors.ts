import type { RootState } from '../../app/store';

export const selectBulkProgress = (state: RootState) => state.bulkProgress;
export const selectDownloads = (state: RootState) => state.bulkDownloads.active;
/** Downloads whose file the server is still preparing, with how far it got. */
export const selectPreparing = (state: RootState) => state.bulkDownloads.preparing;
