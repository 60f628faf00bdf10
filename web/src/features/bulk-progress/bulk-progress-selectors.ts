import type { BulkFileType } from '@flatship/proto';
import type { RootState } from '../../app/store';
import { downloadKey } from './bulk-download-slice';

export const selectBulkProgress = (state: RootState) => state.bulkProgress;
export const selectProgressOrderId = (state: RootState) => state.bulkProgress.orderId;
export const selectDownloads = (state: RootState) => state.bulkDownloads.active;
export const selectDownloadPercent = (state: RootState, orderId: string, type: BulkFileType): number | null =>
  state.bulkDownloads.active[downloadKey(orderId, type)] ?? null;
