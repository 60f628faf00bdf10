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
  /** Downloads whose file the server is still preparing (a bulk order's ZPL): how far it got, by downloadKey. */
  preparing: Record<string, { done: number; total: number }>;
}

const initialState: BulkDownloadState = { active: {}, preparing: {} };

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
    fileDownloadPreparing(state, action: PayloadAction<{ key: string; done: number; total: number }>) {
      const { key, done, total } = action.payload;
      if (key in state.active) state.preparing[key] = { done, total };
    },
    fileDownloadFinished(state, action: PayloadAction<string>) {
      delete state.active[action.payload];
      delete state.preparing[action.payload];
    },
  },
});

export const { fileDownloadRequested, fileDownloadProgressed, fileDownloadPreparing, fileDownloadFinished } =
  bulkDownloadSlice.actions;
export const bulkDownloadReducer = bulkDownloadSlice.reducer;
