import type { BulkFileType } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Where a download was asked for: a failed one from the list reopens the window for its order. */
export type DownloadSource = 'window' | 'list';

export interface DownloadRequest {
  orderId: string;
  type: BulkFileType;
  source: DownloadSource;
}

export const downloadKey = (orderId: string, type: BulkFileType) => `${orderId}:${type}`;

export interface BulkDownloadState {
  /** Percent (0–100) of each running download, by downloadKey. */
  active: Record<string, number>;
}

const initialState: BulkDownloadState = { active: {} };

export const bulkDownloadSlice = createSlice({
  name: 'bulkDownloads',
  initialState,
  reducers: {
    fileDownloadRequested(state, action: PayloadAction<DownloadRequest>) {
      const key = downloadKey(action.payload.orderId, action.payload.type);
      // A second click on a running download changes nothing; the saga ignores it too.
      if (!(key in state.active)) state.active[key] = 0;
    },
    fileDownloadProgressed(state, action: PayloadAction<{ key: string; percent: number }>) {
      if (action.payload.key in state.active) state.active[action.payload.key] = action.payload.percent;
    },
    fileDownloadFinished(state, action: PayloadAction<string>) {
      delete state.active[action.payload];
    },
  },
});

export const { fileDownloadRequested, fileDownloadProgressed, fileDownloadFinished } = bulkDownloadSlice.actions;
export const bulkDownloadReducer = bulkDownloadSlice.reducer;
