import type { Sku } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SkuPresetInput } from './sku-api';

export type SkusStatus = 'idle' | 'loading' | 'loaded' | 'failed';

export interface SkusState {
  items: Sku[];
  status: SkusStatus;
}

/** Each write carries the id of the pending request its saga settles (see data-table-requests.ts). */
export interface SkuAddRequest {
  requestId: string;
  userId: string;
  fields: SkuPresetInput;
}
export interface SkuUploadRequest {
  requestId: string;
  userId: string;
  rows: SkuPresetInput[];
}
export interface SkuUpdateRequest extends SkuAddRequest {
  id: string;
}
export interface SkuDeleteRequest {
  requestId: string;
  id: string;
}

const initialState: SkusState = { items: [], status: 'idle' };

export const skusSlice = createSlice({
  name: 'skus',
  initialState,
  reducers: {
    skusRequested(state, _action: PayloadAction<string>) {
      state.status = 'loading';
    },
    /** The user's whole list, sorted by SKU (a load, or the answer to an add or upload). */
    skusLoaded(state, action: PayloadAction<Sku[]>) {
      state.items = action.payload;
      state.status = 'loaded';
    },
    skusLoadFailed(state) {
      state.items = [];
      state.status = 'failed';
    },
    skuAddSubmitted(_state, _action: PayloadAction<SkuAddRequest>) {},
    skuUploadSubmitted(_state, _action: PayloadAction<SkuUploadRequest>) {},
    skuUpdateSubmitted(_state, _action: PayloadAction<SkuUpdateRequest>) {},
    skuUpdated(state, action: PayloadAction<Sku>) {
      const at = state.items.findIndex((s) => s._id === action.payload._id);
      if (at >= 0) state.items[at] = action.payload;
    },
    skuDeleteSubmitted(_state, _action: PayloadAction<SkuDeleteRequest>) {},
    skuDeleted(state, action: PayloadAction<string>) {
      state.items = state.items.filter((s) => s._id !== action.payload);
    },
  },
});

export const {
  skusRequested,
  skusLoaded,
  skusLoadFailed,
  skuAddSubmitted,
  skuUploadSubmitted,
  skuUpdateSubmitted,
  skuUpdated,
  skuDeleteSubmitted,
  skuDeleted,
} = skusSlice.actions;
export const skusReducer = skusSlice.reducer;
