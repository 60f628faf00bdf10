import type {
  AdminBulkOrderRow,
  AdminBulkOrdersReply,
  AdminLabelsReply,
  AdminRefundLabelReply,
  BulkForceRecoveryReply,
  RawService,
} from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import { errorMessage } from '../../../app/server-message';
import type { RootState } from '../../../app/store';
import { toastShown } from '../../../components/toast-slice';
import { defaultServicesApi } from '../default-services/default-services-api';
import { orderLabelsApi } from './order-labels-api';
import {
  bulkOrdersFailed,
  bulkOrdersLoaded,
  bulkOrdersRequested,
  labelsFailed,
  labelsLoaded,
  labelsRequested,
  ORDER_LABELS_PAGE_SIZE,
  type OrderLabelsState,
  orderRowsFailed,
  orderRowsLoaded,
  orderRowsRequested,
  recoveryRequested,
  recoverySettled,
  refundRequested,
  refundSettled,
  servicesLoaded,
  servicesRequested,
} from './order-labels-slice';

export const ORDER_LABELS_MESSAGES = {
  labelsFailed: 'Failed to load labels',
  bulkOrdersFailed: 'Failed to load bulk orders',
  rowsFailed: 'Failed to load the rows of the bulk order',
  refundFailed: 'Failed to refund the label',
  recoveryFailed: 'Force Recovery failed',
} as const;

const state = (s: RootState): OrderLabelsState => s.orderLabels;

function* loadLabels(): SagaIterator {
  const { labelFilters, labels }: OrderLabelsState = yield select(state);
  try {
    const reply: AdminLabelsReply = yield call(orderLabelsApi.labels, {
      ...labelFilters,
      page: labels.page,
      limit: ORDER_LABELS_PAGE_SIZE,
    });
    yield put(labelsLoaded({ rows: reply.labels, totalCount: reply.totalCount, page: reply.page }));
  } catch (error) {
    console.error('Order labels: loading labels failed', error);
    yield put(labelsFailed());
    yield put(toastShown({ kind: 'error', message: errorMessage(error, ORDER_LABELS_MESSAGES.labelsFailed) }));
  }
}

function* loadBulkOrders(): SagaIterator {
  const { bulkFilters, bulkOrders }: OrderLabelsState = yield select(state);
  try {
    const reply: AdminBulkOrdersReply = yield call(orderLabelsApi.bulkOrders, {
      ...bulkFilters,
      page: bulkOrders.page,
      limit: ORDER_LABELS_PAGE_SIZE,
    });
    yield put(bulkOrdersLoaded({ rows: reply.bulkOrders, totalCount: reply.totalCount, page: reply.page }));
  } catch (error) {
    console.error('Order labels: loading bulk orders failed', error);
    yield put(bulkOrdersFailed());
    yield put(toastShown({ kind: 'error', message: errorMessage(error, ORDER_LABELS_MESSAGES.bulkOrdersFailed) }));
  }
}

function* loadOrderRows(action: PayloadAction<{ orderId: string | null; page?: number }>): SagaIterator {
  const { orderId } = action.payload;
  if (!orderId) return;
  try {
    const reply: AdminLabelsReply = yield call(orderLabelsApi.labels, {
      bulkOrderId: orderId,
      page: action.payload.page ?? 1,
      limit: ORDER_LABELS_PAGE_SIZE,
    });
    yield put(orderRowsLoaded({ orderId, rows: reply.labels, totalCount: reply.totalCount, page: reply.page }));
  } catch (error) {
    console.error('Order labels: loading bulk rows failed', error);
    yield put(orderRowsFailed());
    yield put(toastShown({ kind: 'error', message: errorMessage(error, ORDER_LABELS_MESSAGES.rowsFailed) }));
  }
}

function* loadServices(): SagaIterator {
  try {
    const services: RawService[] = yield call(defaultServicesApi.listRaw);
    yield put(servicesLoaded(Array.isArray(services) ? services : []));
  } catch (error) {
    // The filter then offers no services; everything else still works.
    console.error('Order labels: loading services failed', error);
  }
}

function* refund(action: PayloadAction<string>): SagaIterator {
  const labelId = action.payload;
  try {
    const reply: AdminRefundLabelReply = yield call(orderLabelsApi.refund, labelId);
    yield put(refundSettled({ labelId, label: reply.label }));
    const refund = reply.label.refundStatus;
    yield put(
      toastShown({
        kind: refund === 'refunded' ? 'success' : refund === 'rejected' ? 'error' : 'info',
        message: reply.message,
      }),
    );
    // A bulk row's refund changes its order's counts (and files): the list shows them as they now are.
    if (reply.label.bulkOrderId) {
      const { bulkOrders }: OrderLabelsState = yield select(state);
      yield put(bulkOrdersRequested({ page: bulkOrders.page }));
    }
  } catch (error) {
    console.error('Order labels: refund failed', error);
    yield put(refundSettled({ labelId }));
    yield put(toastShown({ kind: 'error', message: errorMessage(error, ORDER_LABELS_MESSAGES.refundFailed) }));
  }
}

/** The row's status, counts and files as Force Recovery answered them. */
const recoveredChanges = (reply: BulkForceRecoveryReply): Partial<AdminBulkOrderRow> => ({
  status: reply.status,
  processedCount: reply.processedCount,
  failedCount: reply.failedCount,
  refundedCount: reply.refundedCount,
  totalCount: reply.totalCount,
  hasPdf: Boolean(reply.fileData?.pdfName),
  hasResultCsv: Boolean(reply.fileData?.resultCSVName),
  hasAutoConfirmCsv: Boolean(reply.fileData?.autoConfirmCSVName),
});

function* forceRecovery(action: PayloadAction<{ orderId: string; userId: string }>): SagaIterator {
  const { orderId, userId } = action.payload;
  try {
    const reply: BulkForceRecoveryReply = yield call(orderLabelsApi.forceRecovery, userId, orderId);
    yield put(recoverySettled({ orderId, changes: recoveredChanges(reply) }));
    yield put(toastShown({ kind: 'success', message: reply.message }));
  } catch (error) {
    console.error('Order labels: force recovery failed', error);
    yield put(recoverySettled({ orderId }));
    yield put(toastShown({ kind: 'error', message: errorMessage(error, ORDER_LABELS_MESSAGES.recoveryFailed) }));
  }
  // Either way, the list then shows the order as the server has it.
  const { bulkOrders }: OrderLabelsState = yield select(state);
  yield put(bulkOrdersRequested({ page: bulkOrders.page }));
}

export function* orderLabelsSaga(): SagaIterator {
  yield takeLatest(labelsRequested.type, loadLabels);
  yield takeLatest(bulkOrdersRequested.type, loadBulkOrders);
  yield takeLatest(orderRowsRequested.type, loadOrderRows);
  yield takeLatest(servicesRequested.type, loadServices);
  yield takeEvery(refundRequested.type, refund);
  // The button is disabled while its order recovers, and the server writes the files once however often asked.
  yield takeEvery(recoveryRequested.type, forceRecovery);
}
