import {
  ADDRESS_REQUIRED_MESSAGE,
  type BulkRow,
  orderFileKind,
  toBulkOrderItem,
  validateBulkRows,
} from '@flatship/order-files/rows';
import {
  type Address,
  type AvailableService,
  BULK_FILE_NAME_MAX,
  type BulkInitReply,
  type OrderSource,
  type QuoteReply,
  type SavedAddressReply,
  type Sku,
  type SkuDataReply,
} from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, delay, put, select, take, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import type { RootState } from '../../app/store';
import { toastShown } from '../../components/toast-slice';
import { addressApi } from '../addresses/address-api';
import { selectUser } from '../auth/auth-selectors';
import type { SessionUser } from '../auth/session-user';
import { bulkOrderInitialized } from '../bulk-progress/bulk-progress-actions';
import { orderLabelApi } from '../order-label/order-label-api';
import { type SkuPresetInput, skuApi } from '../skus/sku-api';
import { type RowZipFlag, zipFlagsFound } from './bulk-address-check-slice';
import { bulkOrderApi } from './bulk-order-api';
import { BULK_MESSAGES } from './bulk-order-messages';
import {
  selectBulkDataStatus,
  selectBulkFileName,
  selectBulkRow,
  selectBulkRowIds,
  selectBulkRows,
  selectBulkServiceName,
  selectBulkSource,
  selectSavedAddresses,
  selectSkus,
} from './bulk-order-selectors';
import {
  bulkOrderAccepted,
  bulkOrderFailed,
  bulkOrderOpened,
  bulkOrderSubmitted,
  changesPreset,
  columnCopied,
  fileChosen,
  fileLoaded,
  fileReadFailed,
  fileReset,
  initialDataLoaded,
  priceLoaded,
  priceRequested,
  type RowChanges,
  rowDeleted,
  rowEdited,
  serviceSelected,
  servicesLoaded,
  skusChanged,
  validationFailed,
} from './bulk-order-slice';
import { readOrderFileOf, takeFile } from './file-reader';
import type { ReadReply } from './read-file-protocol';

/** Editing a cell, deleting a few rows in a row, or flicking through services asks for one quote. */
export const BULK_PRICE_DEBOUNCE_MS = 300;
/** Spec doc 2 §7: the price call uses weight 1 when a row's weight is not a positive number. */
export const FALLBACK_PRICE_WEIGHT = 1;
const MAX_WARNING_TOASTS = 4;

const userIdOf = (user: SessionUser | null) => user?._id ?? '';

function* loadServices(userId: string): SagaIterator {
  try {
    const services: AvailableService[] = yield call(orderLabelApi.availableServices, userId);
    yield put(servicesLoaded(services));
  } catch (error) {
    console.error('Bulk order: loading services failed', error);
    yield put(servicesLoaded([]));
    yield put(toastShown({ kind: 'error', message: BULK_MESSAGES.servicesFailed }));
  }
}

function* loadSavedData(userId: string): SagaIterator {
  let addresses: Address[] = [];
  let skus: Sku[] = [];
  try {
    const [addressReply, skuReply]: [Partial<SavedAddressReply>, Partial<SkuDataReply>] = yield all([
      call(addressApi.list, userId),
      call(skuApi.list, userId),
    ]);
    addresses = Array.isArray(addressReply?.savedAddress) ? addressReply.savedAddress : [];
    skus = Array.isArray(skuReply?.SkuData) ? skuReply.SkuData : [];
  } catch (error) {
    console.error('Bulk order: loading saved addresses and SKUs failed', error);
    yield put(toastShown({ kind: 'error', message: BULK_MESSAGES.initialDataFailed }));
  }
  yield put(initialDataLoaded({ addresses, skus }));
}

export function* openBulkOrder(action: PayloadAction<string>): SagaIterator {
  yield all([call(loadServices, action.payload), call(loadSavedData, action.payload)]);
}

export function* readChosenFile(action: PayloadAction<{ fileId: string; name: string }>): SagaIterator {
  const file = takeFile(action.payload.fileId);
  const kind = orderFileKind(action.payload.name);
  if (!file || !kind) {
    yield put(fileReadFailed());
    yield put(toastShown({ kind: 'error', message: BULK_MESSAGES.parseFailed, detail: BULK_MESSAGES.unsupported }));
    return;
  }
  // A file dropped while the saved address and SKUs are still loading waits for them.
  const status: string = yield select(selectBulkDataStatus);
  if (status === 'loading') yield take(initialDataLoaded.type);
  const addresses: Address[] = yield select(selectSavedAddresses);
  const skus: Sku[] = yield select(selectSkus);
  // Marketplace files carry no sender: the first saved address ships them (only the template comes as .csv
  // alone; a marketplace export saved as .csv is refused by the reader once recognised).
  if (kind !== 'csv' && addresses.length === 0) {
    yield put(fileReadFailed());
    yield put(toastShown({ kind: 'error', message: ADDRESS_REQUIRED_MESSAGE }));
    return;
  }
  let reply: ReadReply;
  try {
    reply = yield call(readOrderFileOf, file, { senderAddress: addresses[0] ?? null, skus });
  } catch (error) {
    reply = { ok: false, isFileError: false, message: error instanceof Error ? error.message : String(error) };
  }
  if (!reply.ok) {
    yield put(fileReadFailed());
    // A marketplace export recognised only by its columns (a .csv) needs the saved address too.
    if (reply.message === ADDRESS_REQUIRED_MESSAGE) {
      yield put(toastShown({ kind: 'error', message: ADDRESS_REQUIRED_MESSAGE }));
      return;
    }
    const message = reply.isFileError ? BULK_MESSAGES.parseFailed : BULK_MESSAGES.processingFailed;
    yield put(toastShown({ kind: 'error', message, detail: reply.message }));
    return;
  }
  const { rows, source, warnings, zipFlags } = reply.result;
  yield put(fileLoaded({ fileName: file.name, source: source as OrderSource, rows }));
  // The ZIP doubts are keyed by the reader's row ids; the table may have renamed a missing or repeated one.
  const ids: string[] = yield select(selectBulkRowIds);
  const flags: Record<string, RowZipFlag[]> = {};
  rows.forEach((row, i) => {
    const found = zipFlags?.[row._id];
    const id = ids[i];
    if (found && id) flags[id] = found.map(({ kind, message }) => ({ kind, message }));
  });
  yield put(zipFlagsFound(flags));
  yield put(toastShown({ kind: 'success', message: BULK_MESSAGES.uploaded }));
  // The reader ends its warnings with the invalid-rows one (spec doc 2 §5); a flood of others is cut short.
  const shown =
    warnings.length > MAX_WARNING_TOASTS
      ? [...warnings.slice(0, MAX_WARNING_TOASTS - 1), ...warnings.slice(-1)]
      : warnings;
  for (const warning of shown) yield put(toastShown({ kind: 'info', message: warning }));
}

export function* resetFile(): SagaIterator {
  yield put(toastShown({ kind: 'success', message: BULK_MESSAGES.reset }));
}

function priceWeight(value: unknown): number {
  const weight = Number(value);
  return value !== null && value !== '' && Number.isFinite(weight) && weight > 0 ? weight : FALLBACK_PRICE_WEIGHT;
}

export function* quoteBulkPrice(): SagaIterator {
  // takeLatest cancels this wait when another change follows, so only the last state is quoted.
  yield delay(BULK_PRICE_DEBOUNCE_MS);
  const fileName: string | null = yield select(selectBulkFileName);
  const serviceName: string = yield select(selectBulkServiceName);
  const rows: BulkRow[] = yield select(selectBulkRows);
  if (!fileName || !serviceName || rows.length === 0) {
    yield put(priceLoaded(0));
    return;
  }
  yield put(priceRequested());
  try {
    const user: SessionUser | null = yield select(selectUser);
    const reply: Partial<QuoteReply> = yield call(orderLabelApi.quote, {
      userId: userIdOf(user),
      shipments: rows.map((row) => ({
        service_name: serviceName,
        package: { package_weight: priceWeight(row.PackageWeight) },
      })),
    });
    const total = Number(reply?.totalPrice);
    yield put(priceLoaded(Number.isFinite(total) ? total : 0));
  } catch (error) {
    yield put(priceLoaded(0));
    yield put(toastShown({ kind: 'error', message: errorMessage(error, BULK_MESSAGES.priceFailed) }));
  }
}

const positive = (value: unknown) => {
  const number = Number(value);
  return value !== null && value !== '' && Number.isFinite(number) && number > 0 ? number : null;
};

/** Spec doc 2 §5: an edited SKU row saves (or creates) its preset, maxQty being the row's quantity or 1. */
export function* saveSkuPreset(action: PayloadAction<{ id: string; changes: RowChanges }>): SagaIterator {
  if (!changesPreset(action.payload.changes)) return;
  const row: BulkRow | undefined = yield select((state: RootState) => selectBulkRow(state, action.payload.id));
  const sku = row && row.skuNumber !== null && row.skuNumber !== undefined ? String(row.skuNumber).trim() : '';
  if (!row || !sku) return;
  const weight = positive(row.PackageWeight);
  const length = positive(row.PackageLength);
  const width = positive(row.PackageWidth);
  const height = positive(row.PackageHeight);
  // A preset needs every measure; the highlighted cells already tell the user what is missing.
  if (weight === null || length === null || width === null || height === null) return;
  const quantity = positive(row.quantity);
  const user: SessionUser | null = yield select(selectUser);
  const preset: SkuPresetInput = {
    sku,
    maxQty: quantity === null ? 1 : Math.max(1, Math.round(quantity)),
    weight,
    length,
    width,
    height,
    description: row.PackageDescription ? String(row.PackageDescription) : '',
  };
  try {
    const reply: Partial<SkuDataReply> | null = yield call(skuApi.add, userIdOf(user), [preset], true);
    if (reply && Array.isArray(reply.SkuData)) yield put(skusChanged(reply.SkuData));
  } catch (error) {
    yield put(toastShown({ kind: 'error', message: errorMessage(error, BULK_MESSAGES.skuSaveFailed) }));
  }
}

export function* submitBulkOrder(action: PayloadAction<string>): SagaIterator {
  const userId = action.payload;
  const rows: BulkRow[] = yield select(selectBulkRows);
  const serviceName: string = yield select(selectBulkServiceName);
  const errors = validateBulkRows(rows, serviceName);
  if (errors.length > 0) {
    yield put(validationFailed(errors));
    return;
  }
  let orderId: string | undefined;
  try {
    const reply: Partial<BulkInitReply> = yield call(bulkOrderApi.init, userId);
    orderId = reply?.data?.orderId;
    if (!orderId) throw new Error('The bulk order was created without an id');
  } catch (error) {
    yield put(bulkOrderFailed());
    yield put(toastShown({ kind: 'error', message: errorMessage(error, BULK_MESSAGES.initFailed) }));
    return;
  }
  const fileName: string | null = yield select(selectBulkFileName);
  const source: OrderSource | null = yield select(selectBulkSource);
  try {
    yield call(bulkOrderApi.process, userId, {
      orderId,
      orderData: rows.map((row) => toBulkOrderItem(row, serviceName)),
      ...(source ? { source } : {}),
      ...(fileName ? { fileName: fileName.slice(0, BULK_FILE_NAME_MAX) } : {}),
    });
  } catch (error) {
    yield put(bulkOrderFailed());
    yield put(toastShown({ kind: 'error', message: errorMessage(error, BULK_MESSAGES.processFailed) }));
    return;
  }
  yield put(bulkOrderInitialized({ orderId, totalCount: rows.length, status: 'processing', source }));
  yield put(bulkOrderAccepted(orderId));
}

export function* bulkOrderSaga(): SagaIterator {
  yield all([
    // Queries: a newer one replaces an older one, so a stale answer never wins.
    takeLatest(bulkOrderOpened.type, openBulkOrder),
    takeLatest(
      [fileLoaded.type, serviceSelected.type, rowEdited.type, rowDeleted.type, columnCopied.type, fileReset.type],
      quoteBulkPrice,
    ),
    // A newer file replaces one still being read.
    takeLatest(fileChosen.type, readChosenFile),
    takeEvery(fileReset.type, resetFile),
    // Every edit is its own preset write.
    takeEvery(rowEdited.type, saveSkuPreset),
    // Submit: a second click while one order is being placed is ignored.
    takeLeading(bulkOrderSubmitted.type, submitBulkOrder),
  ]);
}
