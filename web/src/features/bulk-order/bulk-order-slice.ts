import type { BulkRow } from '@flatship/order-files/rows';
import type { Address, AvailableService, OrderSource, Sku } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { type BulkField, DIMENSION_FIELDS, isFilled } from './bulk-columns';

export type LoadStatus = 'idle' | 'loading' | 'loaded';

/** One entry of the Validation Errors dialog; rowIndex -1 is the service check. */
export interface RowErrors {
  rowIndex: number;
  errors: string[];
}

export type RowChanges = Partial<Record<BulkField, string | number | null>>;

export interface BulkOrderState {
  services: AvailableService[];
  servicesStatus: LoadStatus;
  savedAddresses: Address[];
  skus: Sku[];
  dataStatus: LoadStatus;
  serviceUid: string;
  fileName: string | null;
  source: OrderSource | null;
  isReading: boolean;
  /** Rows by id with their order kept apart, so editing one row changes one entry. */
  rowIds: string[];
  rowsById: Record<string, BulkRow>;
  price: number;
  isPricing: boolean;
  isSubmitting: boolean;
  validationErrors: RowErrors[] | null;
  lastOrderId: string | null;
}

const initialState: BulkOrderState = {
  services: [],
  servicesStatus: 'idle',
  savedAddresses: [],
  skus: [],
  dataStatus: 'idle',
  serviceUid: '',
  fileName: null,
  source: null,
  isReading: false,
  rowIds: [],
  rowsById: {},
  price: 0,
  isPricing: false,
  isSubmitting: false,
  validationErrors: null,
  lastOrderId: null,
};

/** Whether an edit should reach the other rows of its SKU and the saved preset (spec doc 2 §5 File rules). */
export function changesPreset(changes: RowChanges): boolean {
  return DIMENSION_FIELDS.some((field) => field in changes) || 'skuNumber' in changes || 'quantity' in changes;
}

const skuKey = (value: unknown) => (isFilled(value) ? String(value).trim().toLowerCase() : null);

function clearRows(state: BulkOrderState) {
  state.fileName = null;
  state.source = null;
  state.rowIds = [];
  state.rowsById = {};
  state.price = 0;
  state.isPricing = false;
}

export const bulkOrderSlice = createSlice({
  name: 'bulkOrder',
  initialState,
  reducers: {
    /** The screen opened for this user: load services, saved addresses and SKU presets. */
    bulkOrderOpened(state, _action: PayloadAction<string>) {
      state.servicesStatus = 'loading';
      state.dataStatus = 'loading';
    },
    servicesLoaded(state, action: PayloadAction<AvailableService[]>) {
      state.services = action.payload;
      state.servicesStatus = 'loaded';
      if (state.serviceUid && !action.payload.some((s) => s.uid === state.serviceUid)) state.serviceUid = '';
    },
    initialDataLoaded(state, action: PayloadAction<{ addresses: Address[]; skus: Sku[] }>) {
      state.savedAddresses = action.payload.addresses;
      state.skus = action.payload.skus;
      state.dataStatus = 'loaded';
    },
    skusChanged(state, action: PayloadAction<Sku[]>) {
      state.skus = action.payload;
    },
    serviceSelected(state, action: PayloadAction<string>) {
      state.serviceUid = action.payload;
    },
    /** `fileId` names a file held by file-reader.ts. */
    fileChosen(state, _action: PayloadAction<{ fileId: string; name: string }>) {
      state.isReading = true;
    },
    fileLoaded(state, action: PayloadAction<{ fileName: string; source: OrderSource; rows: BulkRow[] }>) {
      const { fileName, source, rows } = action.payload;
      const ids: string[] = [];
      const byId: Record<string, BulkRow> = {};
      rows.forEach((row, index) => {
        // Readers may leave ids out or repeat them; the table needs one stable key per row.
        let id = isFilled(row._id) ? String(row._id) : `row-${index + 1}`;
        if (id in byId) id = `${id}-${index + 1}`;
        ids.push(id);
        byId[id] = { ...row, _id: id };
      });
      state.fileName = fileName;
      state.source = source;
      state.rowIds = ids;
      state.rowsById = byId;
      state.isReading = false;
      state.price = 0;
    },
    fileReadFailed(state) {
      state.isReading = false;
    },
    fileReset(state) {
      clearRows(state);
    },
    rowEdited(state, action: PayloadAction<{ id: string; changes: RowChanges }>) {
      const { id, changes } = action.payload;
      const row = state.rowsById[id];
      if (!row) return;
      Object.assign(row, changes);
      const sku = skuKey(row.skuNumber);
      if (!sku || !changesPreset(changes)) return;
      for (const otherId of state.rowIds) {
        const other = state.rowsById[otherId];
        if (otherId === id || !other || skuKey(other.skuNumber) !== sku) continue;
        for (const field of DIMENSION_FIELDS) other[field] = row[field];
      }
    },
    /** Several rows changed in one step (accepting the address check's corrections); SKU presets are not touched. */
    rowsEdited(state, action: PayloadAction<{ id: string; changes: RowChanges }[]>) {
      for (const { id, changes } of action.payload) {
        const row = state.rowsById[id];
        if (row) Object.assign(row, changes);
      }
    },
    rowDeleted(state, action: PayloadAction<string>) {
      if (!(action.payload in state.rowsById)) return;
      delete state.rowsById[action.payload];
      state.rowIds = state.rowIds.filter((id) => id !== action.payload);
    },
    /** "Copy from:": every row's `target` takes its own `source` value, in one step however many rows. */
    columnCopied(state, action: PayloadAction<{ target: BulkField; source: BulkField }>) {
      const { target, source } = action.payload;
      for (const id of state.rowIds) {
        const row = state.rowsById[id];
        if (row) (row as Record<string, unknown>)[target] = row[source];
      }
    },
    priceRequested(state) {
      state.isPricing = true;
    },
    priceLoaded(state, action: PayloadAction<number>) {
      state.price = action.payload;
      state.isPricing = false;
    },
    bulkOrderSubmitted(state, _action: PayloadAction<string>) {
      state.isSubmitting = true;
    },
    validationFailed(state, action: PayloadAction<RowErrors[]>) {
      state.isSubmitting = false;
      state.validationErrors = action.payload;
    },
    validationDismissed(state) {
      state.validationErrors = null;
    },
    bulkOrderAccepted(state, action: PayloadAction<string>) {
      state.isSubmitting = false;
      state.lastOrderId = action.payload;
      clearRows(state);
    },
    bulkOrderFailed(state) {
      state.isSubmitting = false;
    },
  },
});

export const {
  bulkOrderOpened,
  servicesLoaded,
  initialDataLoaded,
  skusChanged,
  serviceSelected,
  fileChosen,
  fileLoaded,
  fileReadFailed,
  fileReset,
  rowEdited,
  rowsEdited,
  rowDeleted,
  columnCopied,
  priceRequested,
  priceLoaded,
  bulkOrderSubmitted,
  validationFailed,
  validationDismissed,
  bulkOrderAccepted,
  bulkOrderFailed,
} = bulkOrderSlice.actions;
export const bulkOrderReducer = bulkOrderSlice.reducer;
