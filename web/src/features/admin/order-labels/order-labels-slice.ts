import type {
  AdminBulkOrderRow,
  AdminBulkOrdersQuery,
  AdminLabelRow,
  AdminLabelsQuery,
  RawService,
} from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type LabelFilters = Omit<AdminLabelsQuery, 'page' | 'limit' | 'bulkOrderId'>;
export type BulkFilters = Omit<AdminBulkOrdersQuery, 'page' | 'limit'>;

interface Paged<T> {
  rows: T[];
  totalCount: number;
  page: number;
  isLoading: boolean;
}

const emptyPage = <T>(): Paged<T> => ({ rows: [], totalCount: 0, page: 1, isLoading: false });

export interface OrderLabelsState {
  labelFilters: LabelFilters;
  labels: Paged<AdminLabelRow>;
  bulkFilters: BulkFilters;
  bulkOrders: Paged<AdminBulkOrderRow>;
  /** The bulk order opened, and its rows. */
  openOrderId: string | null;
  orderRows: Paged<AdminLabelRow>;
  services: RawService[];
  /** Labels whose refund is on its way. */
  refunding: string[];
  /** Bulk orders whose Force Recovery is on its way. */
  recovering: string[];
}

export const ORDER_LABELS_PAGE_SIZE = 25;

const initialState: OrderLabelsState = {
  labelFilters: {},
  labels: emptyPage(),
  bulkFilters: {},
  bulkOrders: emptyPage(),
  openOrderId: null,
  orderRows: emptyPage(),
  services: [],
  refunding: [],
  recovering: [],
};

type PageReply<T> = { rows: T[]; totalCount: number; page: number };

const replaceLabel = (rows: AdminLabelRow[], label: AdminLabelRow) =>
  rows.map((r) => (r._id === label._id ? label : r));

export const orderLabelsSlice = createSlice({
  name: 'orderLabels',
  initialState,
  reducers: {
    /** New filters start again at page 1. */
    labelsRequested(state, action: PayloadAction<{ filters?: LabelFilters; page?: number }>) {
      if (action.payload.filters) state.labelFilters = action.payload.filters;
      state.labels.page = action.payload.page ?? 1;
      state.labels.isLoading = true;
    },
    labelsLoaded(state, action: PayloadAction<PageReply<AdminLabelRow>>) {
      state.labels = { ...action.payload, isLoading: false };
    },
    labelsFailed(state) {
      state.labels.isLoading = false;
    },
    bulkOrdersRequested(state, action: PayloadAction<{ filters?: BulkFilters; page?: number }>) {
      if (action.payload.filters) state.bulkFilters = action.payload.filters;
      state.bulkOrders.page = action.payload.page ?? 1;
      state.bulkOrders.isLoading = true;
    },
    bulkOrdersLoaded(state, action: PayloadAction<PageReply<AdminBulkOrderRow>>) {
      state.bulkOrders = { ...action.payload, isLoading: false };
    },
    bulkOrdersFailed(state) {
      state.bulkOrders.isLoading = false;
    },
    /** Opens a bulk order's rows (null closes it). */
    orderRowsRequested(state, action: PayloadAction<{ orderId: string | null; page?: number }>) {
      if (state.openOrderId !== action.payload.orderId) state.orderRows = emptyPage();
      state.openOrderId = action.payload.orderId;
      state.orderRows.page = action.payload.page ?? 1;
      state.orderRows.isLoading = action.payload.orderId !== null;
    },
    orderRowsLoaded(state, action: PayloadAction<PageReply<AdminLabelRow> & { orderId: string }>) {
      if (action.payload.orderId !== state.openOrderId) return;
      const { orderId: _o, ...page } = action.payload;
      state.orderRows = { ...page, isLoading: false };
    },
    orderRowsFailed(state) {
      state.orderRows.isLoading = false;
    },
    servicesRequested() {},
    servicesLoaded(state, action: PayloadAction<RawService[]>) {
      state.services = action.payload;
    },
    refundRequested(state, action: PayloadAction<string>) {
      if (!state.refunding.includes(action.payload)) state.refunding.push(action.payload);
    },
    /** Force Recovery of a bulk order whose files are stuck; `userId` is its owner. */
    recoveryRequested(state, action: PayloadAction<{ orderId: string; userId: string }>) {
      if (!state.recovering.includes(action.payload.orderId)) state.recovering.push(action.payload.orderId);
    },
    /** The order as the recovery left it (status, counts, which files exist), when it answered. */
    recoverySettled(state, action: PayloadAction<{ orderId: string; changes?: Partial<AdminBulkOrderRow> }>) {
      const { orderId, changes } = action.payload;
      state.recovering = state.recovering.filter((id) => id !== orderId);
      if (changes)
        state.bulkOrders.rows = state.bulkOrders.rows.map((o) => (o._id === orderId ? { ...o, ...changes } : o));
    },
    refundSettled(state, action: PayloadAction<{ labelId: string; label?: AdminLabelRow }>) {
      state.refunding = state.refunding.filter((id) => id !== action.payload.labelId);
      const label = action.payload.label;
      if (label) {
        state.labels.rows = replaceLabel(state.labels.rows, label);
        state.orderRows.rows = replaceLabel(state.orderRows.rows, label);
      }
    },
  },
});

export const {
  labelsRequested,
  labelsLoaded,
  labelsFailed,
  bulkOrdersRequested,
  bulkOrdersLoaded,
  bulkOrdersFailed,
  orderRowsRequested,
  orderRowsLoaded,
  orderRowsFailed,
  servicesRequested,
  servicesLoaded,
  refundRequested,
  refundSettled,
  recoveryRequested,
  recoverySettled,
} = orderLabelsSlice.actions;
export const orderLabelsReducer = orderLabelsSlice.reducer;
