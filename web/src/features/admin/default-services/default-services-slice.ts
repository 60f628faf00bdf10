import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ConfiguredService, PriceRange, RawService } from './default-services-api';

export interface DefaultServicesState {
  isLoading: boolean;
  /** The red text shown instead of the cards when loading failed. */
  loadError: string | null;
  services: ConfiguredService[];
  rawServices: RawService[];
  isSyncing: boolean;
  /** Services with a change on its way: their controls wait. */
  savingIds: string[];
}

const initialState: DefaultServicesState = {
  isLoading: false,
  loadError: null,
  services: [],
  rawServices: [],
  isSyncing: false,
  savingIds: [],
};

const stopSaving = (state: DefaultServicesState, id: string) => {
  state.savingIds = state.savingIds.filter((s) => s !== id);
};

export const defaultServicesSlice = createSlice({
  name: 'defaultServices',
  initialState,
  reducers: {
    defaultServicesRequested(state) {
      state.isLoading = true;
      state.loadError = null;
    },
    defaultServicesLoaded(state, action: PayloadAction<{ services: ConfiguredService[]; rawServices: RawService[] }>) {
      state.isLoading = false;
      state.services = action.payload.services;
      state.rawServices = action.payload.rawServices;
    },
    defaultServicesFailed(state, action: PayloadAction<string>) {
      state.isLoading = false;
      state.loadError = action.payload;
    },
    defaultServicesSyncRequested(state) {
      state.isSyncing = true;
    },
    /** Spec doc 3 §4: the list the sync answers replaces the one on screen. */
    defaultServicesSynced(state, action: PayloadAction<ConfiguredService[]>) {
      state.isSyncing = false;
      state.services = action.payload;
      state.loadError = null;
    },
    defaultServicesSyncFailed(state) {
      state.isSyncing = false;
    },
    defaultServiceToggleRequested(state, action: PayloadAction<{ id: string; enabled: boolean }>) {
      state.savingIds.push(action.payload.id);
    },
    defaultServicePricesSaveRequested(
      state,
      action: PayloadAction<{ id: string; prices: PriceRange[]; maxWeight: number }>,
    ) {
      state.savingIds.push(action.payload.id);
    },
    defaultServiceRenameRequested(state, action: PayloadAction<{ id: string; name: string }>) {
      state.savingIds.push(action.payload.id);
    },
    defaultServiceChanged(state, action: PayloadAction<ConfiguredService>) {
      const changed = action.payload;
      state.services = state.services.map((s) => (s._id === changed._id ? changed : s));
      stopSaving(state, changed._id);
    },
    defaultServiceChangeFailed(state, action: PayloadAction<string>) {
      stopSaving(state, action.payload);
    },
  },
});

export const {
  defaultServicesRequested,
  defaultServicesLoaded,
  defaultServicesFailed,
  defaultServicesSyncRequested,
  defaultServicesSynced,
  defaultServicesSyncFailed,
  defaultServiceToggleRequested,
  defaultServicePricesSaveRequested,
  defaultServiceRenameRequested,
  defaultServiceChanged,
  defaultServiceChangeFailed,
} = defaultServicesSlice.actions;
export const defaultServicesReducer = defaultServicesSlice.reducer;

export const selectDefaultServices = (state: { defaultServices: DefaultServicesState }) => state.defaultServices;
