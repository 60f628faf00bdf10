import type { FileData } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { bulkOrderInitialized } from './bulk-progress-actions';

/** Spec doc 1 §3 / doc 2 §3 "Progress window state", exactly. */
export interface BulkProgressState {
  isVisible: boolean;
  isMinimized: boolean;
  orderId: string | null;
  /** One of the batch order statuses of spec doc 2 §4; 'processing' until told otherwise. */
  orderStatus: string;
  processedCount: number;
  failedCount: number;
  /** Labels bought and then refunded by an admin (void): settled, neither processed nor failed. Not in the spec. */
  refundedCount: number;
  totalCount: number;
  fileData: FileData | null;
  error: string | null;
  statusError: string | null;
  retryError: string | null;
  isRetrying: boolean;
  loading: boolean;
  /** Epoch milliseconds the clock counts from; null while no order is followed. */
  startTime: number | null;
  /** Whole seconds since startTime. */
  elapsedTime: number;
  /** The order's marketplace (`shopify`) when known: a marketplace that takes no tracking file is named so. Not in the spec. */
  source: string | null;
}

export const initialBulkProgressState = (): BulkProgressState => ({
  isVisible: false,
  isMinimized: false,
  orderId: null,
  orderStatus: 'processing',
  processedCount: 0,
  failedCount: 0,
  refundedCount: 0,
  totalCount: 0,
  fileData: null,
  error: null,
  statusError: null,
  retryError: null,
  isRetrying: false,
  loading: false,
  startTime: null,
  elapsedTime: 0,
  source: null,
});

/** A progress event or retry answer: only the numeric counts change; status and files when given. */
export interface ProgressUpdate {
  processedCount?: unknown;
  failedCount?: unknown;
  refundedCount?: unknown;
  totalCount?: unknown;
  status?: string | null | undefined;
  fileData?: FileData | null | undefined;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function applyUpdate(state: BulkProgressState, update: ProgressUpdate) {
  if (isCount(update.processedCount)) state.processedCount = update.processedCount;
  if (isCount(update.failedCount)) state.failedCount = update.failedCount;
  if (isCount(update.refundedCount)) state.refundedCount = update.refundedCount;
  if (isCount(update.totalCount)) state.totalCount = update.totalCount;
  if (update.status) state.orderStatus = update.status;
  if (update.fileData) state.fileData = update.fileData;
}

export const bulkProgressSlice = createSlice({
  name: 'bulkProgress',
  initialState: initialBulkProgressState,
  reducers: {
    /** Follow an existing order (batch list, reload, a failed download): the clock restarts at 0. */
    progressWindowShown(
      state,
      action: PayloadAction<{ orderId: string; startTime: number; source?: string | null | undefined }>,
    ) {
      if (state.orderId !== action.payload.orderId) {
        // Another order's counts and files must never show under this one's id.
        Object.assign(state, initialBulkProgressState());
      }
      state.orderId = action.payload.orderId;
      if (action.payload.source !== undefined) state.source = action.payload.source;
      state.isVisible = true;
      state.isMinimized = false;
      state.startTime = action.payload.startTime;
      state.elapsedTime = 0;
    },
    progressWindowMinimized(state) {
      state.isMinimized = true;
    },
    progressWindowExpanded(state) {
      state.isMinimized = false;
    },
    progressUpdated(state, action: PayloadAction<ProgressUpdate>) {
      applyUpdate(state, action.payload);
    },
    timerTicked(state, action: PayloadAction<number>) {
      if (state.startTime === null) return;
      state.elapsedTime = Math.max(0, Math.floor((action.payload - state.startTime) / 1000));
    },
    progressErrorShown(state, action: PayloadAction<{ error?: string | null; statusError?: string | null }>) {
      if (action.payload.error !== undefined) state.error = action.payload.error;
      if (action.payload.statusError !== undefined) state.statusError = action.payload.statusError;
    },
    retryRequested(state) {
      state.isRetrying = true;
      state.retryError = null;
    },
    retrySucceeded(state, action: PayloadAction<{ update: ProgressUpdate; retryError: string | null }>) {
      applyUpdate(state, action.payload.update);
      state.isRetrying = false;
      state.retryError = action.payload.retryError;
    },
    retryFailed(state, action: PayloadAction<{ message: string; status: string }>) {
      state.isRetrying = false;
      state.retryError = action.payload.message;
      state.orderStatus = action.payload.status;
    },
    /** "Retry file generation" after a download found no file. */
    fileGenerationRetryRequested(state) {
      state.loading = true;
    },
    fileGenerationRetryFinished(state, action: PayloadAction<{ error: string | null; update?: ProgressUpdate }>) {
      state.loading = false;
      state.error = action.payload.error;
      if (action.payload.update) applyUpdate(state, action.payload.update);
    },
    bulkProgressReset() {
      return initialBulkProgressState();
    },
  },
  extraReducers: (builder) => {
    builder.addCase(bulkOrderInitialized, (state, action) => {
      const { orderId, totalCount, status, source } = action.payload;
      // Counts of an earlier order, its files and errors all go: this is a new order.
      Object.assign(state, initialBulkProgressState(), {
        orderId,
        totalCount,
        orderStatus: status ?? 'processing',
        processedCount: 0,
        failedCount: 0,
        refundedCount: 0,
        isVisible: true,
        isMinimized: false,
        startTime: action.meta.startTime,
        elapsedTime: 0,
        source: source ?? null,
      });
    });
  },
});

export const {
  progressWindowShown,
  progressWindowMinimized,
  progressWindowExpanded,
  progressUpdated,
  timerTicked,
  progressErrorShown,
  retryRequested,
  retrySucceeded,
  retryFailed,
  fileGenerationRetryRequested,
  fileGenerationRetryFinished,
  bulkProgressReset,
} = bulkProgressSlice.actions;
export const bulkProgressReducer = bulkProgressSlice.reducer;
