import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, delay, fork, put, take, takeEvery, takeLatest } from 'redux-saga/effects';
import { errorMessage, serverMessage } from '../../app/server-message';
import { toastShown } from '../../components/toast-slice';
import { bulkProgressApi } from '../bulk-progress/bulk-progress-api';
import { type BatchOrder, type BulkForceRecoveryReply, batchOrdersApi } from './batch-orders-api';
import {
  batchActionFinished,
  batchFixRequested,
  batchForceRecoveryRequested,
  batchOrderRecovered,
  batchOrdersFailed,
  batchOrdersLoaded,
  batchOrdersRequested,
  batchRetryRequested,
} from './batch-orders-slice';

export const BATCH_MESSAGES = {
  fetchFailed: 'Failed to fetch batch orders',
  retryStarted: 'Retry process started successfully! Files will be regenerated automatically.',
  retryFailed: 'Failed to retry failed labels',
  fixing: 'Fixing batch order...',
  fixed: 'Batch order fixed! Status and failed labels updated.',
  fixFailed: 'Failed to fix batch order',
  // Not in the spec, which names Force Recovery only; the server's answer says what became of the order.
  forceRecovering: 'Recovering the order files...',
  forceRecoveryFailed: 'Force Recovery failed',
} as const;

/** Spec doc 2 §9: the list reloads 1 s after a retry. */
export const RETRY_RELOAD_MS = 1000;

const time = (order: BatchOrder) => {
  const t = new Date(order.createdAt).getTime();
  return Number.isNaN(t) ? 0 : t;
};
export const newestFirst = (orders: BatchOrder[]) => [...orders].sort((a, b) => time(b) - time(a));

export function* loadBatchOrders(action: PayloadAction<string>): SagaIterator {
  try {
    const orders: BatchOrder[] = yield call(batchOrdersApi.list, action.payload);
    yield put(batchOrdersLoaded(newestFirst(orders)));
  } catch (error) {
    console.error('Batch orders: loading failed', error);
    yield put(batchOrdersFailed(BATCH_MESSAGES.fetchFailed));
    yield put(toastShown({ kind: 'error', message: BATCH_MESSAGES.fetchFailed }));
  }
}

export function* retryBatch(action: PayloadAction<{ orderId: string; userId: string }>): SagaIterator {
  const { orderId, userId } = action.payload;
  try {
    yield call(bulkProgressApi.retryFailed, orderId);
    yield put(toastShown({ kind: 'success', message: BATCH_MESSAGES.retryStarted }));
  } catch (error) {
    yield put(toastShown({ kind: 'error', message: errorMessage(error, BATCH_MESSAGES.retryFailed) }));
  } finally {
    yield put(batchActionFinished(orderId));
  }
  // The server moves the order on in the background: look again shortly.
  yield delay(RETRY_RELOAD_MS);
  yield put(batchOrdersRequested(userId));
}

export function* fixBatch(action: PayloadAction<{ orderId: string; userId: string }>): SagaIterator {
  const { orderId, userId } = action.payload;
  yield put(toastShown({ kind: 'info', message: BATCH_MESSAGES.fixing }));
  try {
    yield call(bulkProgressApi.fix, orderId);
    yield put(toastShown({ kind: 'success', message: BATCH_MESSAGES.fixed }));
    yield put(batchOrdersRequested(userId));
  } catch (error) {
    yield put(toastShown({ kind: 'error', message: BATCH_MESSAGES.fixFailed, detail: serverMessage(error) }));
  } finally {
    yield put(batchActionFinished(orderId));
  }
}

export function* forceRecoverBatch(action: PayloadAction<{ orderId: string; userId: string }>): SagaIterator {
  const { orderId, userId } = action.payload;
  yield put(toastShown({ kind: 'info', message: BATCH_MESSAGES.forceRecovering }));
  try {
    const reply: BulkForceRecoveryReply = yield call(batchOrdersApi.forceRecovery, userId, orderId);
    yield put(batchOrderRecovered({ orderId, changes: recoveredChanges(reply) }));
    yield put(toastShown({ kind: 'success', message: reply.message }));
  } catch (error) {
    yield put(toastShown({ kind: 'error', message: errorMessage(error, BATCH_MESSAGES.forceRecoveryFailed) }));
  } finally {
    yield put(batchActionFinished(orderId));
  }
  // Whatever the answer, the list then shows the order as the server has it.
  yield put(batchOrdersRequested(userId));
}

/** The row's new status, counts and files, from the Force Recovery answer. */
export const recoveredChanges = (reply: BulkForceRecoveryReply): Partial<BatchOrder> => ({
  status: reply.status,
  processedCount: reply.processedCount,
  failedCount: reply.failedCount,
  refundedCount: reply.refundedCount,
  totalCount: reply.totalCount,
  ...(reply.fileData
    ? {
        pdfName: reply.fileData.pdfName,
        resultCSVName: reply.fileData.resultCSVName,
        autoConfirmCSVName: reply.fileData.autoConfirmCSVName,
        fileDisplayNames: reply.fileData,
      }
    : {}),
});

/**
 * One Force Recovery per order at a time: a second request for an order whose recovery is in flight (a double
 * click landing before the button is disabled) is dropped; other orders recover side by side.
 */
function* oneRecoveryPerOrder(): SagaIterator {
  const inFlight = new Set<string>();
  while (true) {
    const action: PayloadAction<{ orderId: string; userId: string }> = yield take(batchForceRecoveryRequested.type);
    const { orderId } = action.payload;
    if (inFlight.has(orderId)) continue;
    inFlight.add(orderId);
    yield fork(function* recover(): SagaIterator {
      try {
        yield call(forceRecoverBatch, action);
      } finally {
        inFlight.delete(orderId);
      }
    });
  }
}

export function* batchOrdersSaga(): SagaIterator {
  yield all([
    // Query: a newer reload replaces an older one.
    takeLatest(batchOrdersRequested.type, loadBatchOrders),
    // Submits on different orders run side by side; the row's buttons are disabled while its own runs.
    takeEvery(batchRetryRequested.type, retryBatch),
    takeEvery(batchFixRequested.type, fixBatch),
    fork(oneRecoveryPerOrder),
  ]);
}
