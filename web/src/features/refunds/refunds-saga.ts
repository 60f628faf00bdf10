import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import type { RootState } from '../../app/store';
import { toastShown } from '../../components/toast-slice';
import { selectUser } from '../auth/auth-selectors';
import { sessionVerifyRequested } from '../auth/auth-slice';
import { batchOrdersRequested } from '../batch-orders/batch-orders-slice';
import { ordersRequested } from '../orders/orders-slice';
import { type BatchLabel, type BatchRefundReply, type RefundLabelReply, refundsApi } from './refunds-api';
import {
  batchLabelsFailed,
  batchLabelsLoaded,
  batchLabelsOpened,
  batchLabelsReloaded,
  batchRefundFinished,
  batchRefundRequested,
  labelRefundFinished,
  labelRefundRequested,
} from './refunds-slice';

export const REFUND_TEXTS = {
  failed: 'The refund could not be requested',
  labelsFailed: 'The labels of this batch could not be loaded',
} as const;

const openBatch = (state: RootState) => state.refunds?.batch.orderId ?? null;

/** After a refund: the lists show its state, and the balance (credited or not) is read again. */
function* refreshAfter(orderId: string | null | undefined): SagaIterator {
  const userId: string | undefined = (yield select(selectUser))?._id;
  if (userId) yield put(orderId ? batchOrdersRequested(userId) : ordersRequested(userId));
  if (orderId && (yield select(openBatch)) === orderId) yield put(batchLabelsReloaded());
  yield put(sessionVerifyRequested());
}

export function* refundLabel(action: PayloadAction<{ labelId: string; orderId?: string | null }>): SagaIterator {
  const { labelId, orderId } = action.payload;
  try {
    const reply: RefundLabelReply = yield call(refundsApi.refundLabel, labelId);
    const kind = reply.refundStatus === 'refunded' ? 'success' : reply.refundStatus === 'rejected' ? 'error' : 'info';
    yield put(toastShown({ kind, message: reply.message }));
  } catch (error) {
    yield put(toastShown({ kind: 'error', message: errorMessage(error, REFUND_TEXTS.failed) }));
  } finally {
    yield put(labelRefundFinished(labelId));
  }
  yield call(refreshAfter, orderId);
}

export function* refundBatch(action: PayloadAction<{ orderId: string }>): SagaIterator {
  const { orderId } = action.payload;
  try {
    const reply: BatchRefundReply = yield call(refundsApi.refundBatch, orderId);
    const kind = reply.rejected > 0 ? 'error' : reply.refunded > 0 ? 'success' : 'info';
    yield put(toastShown({ kind, message: reply.message }));
  } catch (error) {
    yield put(toastShown({ kind: 'error', message: errorMessage(error, REFUND_TEXTS.failed) }));
  } finally {
    yield put(batchRefundFinished(orderId));
  }
  yield call(refreshAfter, orderId);
}

export function* loadBatchLabels(): SagaIterator {
  const orderId: string | null = yield select(openBatch);
  if (!orderId) return;
  try {
    const labels: BatchLabel[] = yield call(refundsApi.batchLabels, orderId);
    yield put(batchLabelsLoaded({ orderId, labels }));
  } catch (error) {
    yield put(batchLabelsFailed({ orderId, error: errorMessage(error, REFUND_TEXTS.labelsFailed) }));
  }
}

export function* refundsSaga(): SagaIterator {
  yield all([
    // Each label and each batch on its own; their buttons are disabled while theirs runs.
    takeEvery(labelRefundRequested.type, refundLabel),
    takeEvery(batchRefundRequested.type, refundBatch),
    takeLatest([batchLabelsOpened.type, batchLabelsReloaded.type], loadBatchLabels),
  ]);
}
