import { createSelector } from '@reduxjs/toolkit';
import type { RootState } from '../../app/store';
import { hasOrderInformation } from './bulk-columns';

const slice = (state: RootState) => state.bulkOrder;

export const selectBulkServices = (state: RootState) => slice(state).services;
export const selectBulkServicesLoading = (state: RootState) => slice(state).servicesStatus !== 'loaded';
export const selectBulkServiceUid = (state: RootState) => slice(state).serviceUid;
export const selectBulkServiceName = (state: RootState) =>
  slice(state).services.find((s) => s.uid === slice(state).serviceUid)?.name ?? '';
export const selectBulkFileName = (state: RootState) => slice(state).fileName;
export const selectBulkSource = (state: RootState) => slice(state).source;
export const selectIsReadingFile = (state: RootState) => slice(state).isReading;
export const selectBulkRowIds = (state: RootState) => slice(state).rowIds;
export const selectBulkRowsById = (state: RootState) => slice(state).rowsById;
export const selectBulkRow = (state: RootState, id: string) => slice(state).rowsById[id];
export const selectBulkPrice = (state: RootState) => slice(state).price;
export const selectBulkIsPricing = (state: RootState) => slice(state).isPricing;
export const selectBulkIsSubmitting = (state: RootState) => slice(state).isSubmitting;
export const selectValidationErrors = (state: RootState) => slice(state).validationErrors;
export const selectSavedAddresses = (state: RootState) => slice(state).savedAddresses;
export const selectBulkDataStatus = (state: RootState) => slice(state).dataStatus;
export const selectSkus = (state: RootState) => slice(state).skus;

/** Rows in table order; for the saga and the checks, not for rendering (rows render by id). */
export const selectBulkRows = createSelector([selectBulkRowIds, selectBulkRowsById], (ids, byId) =>
  ids.flatMap((id) => (byId[id] ? [byId[id]] : [])),
);

/** Recomputed only when rows change, which an edit in progress never does (its draft is local). */
export const selectShowsOrderInformation = createSelector([selectBulkRowsById], (byId) =>
  hasOrderInformation(Object.values(byId)),
);
