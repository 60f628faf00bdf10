import { isTerminalBulkStatus } from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import { channel, type SagaIterator } from 'redux-saga';
import { all, call, cancelled, delay, fork, put, select, take, takeEvery, takeLeading } from 'redux-saga/effects';
import { ApiError } from '../../app/http';
import { errorMessage } from '../../app/server-message';
import type { RootState } from '../../app/store';
import { toastShown } from '../../components/toast-slice';
import { logoutRequested } from '../auth/auth-slice';
import {
  COMPLETE_PAUSE_MS,
  DOWNLOAD_ERRORS,
  DownloadError,
  type DownloadedFile,
  FILE_LABELS,
  FilePreparing,
  fetchBulkFile,
  saveBlob,
} from './bulk-download';
import {
  type DownloadRequest,
  downloadKey,
  fileDownloadFinished,
  fileDownloadPreparing,
  fileDownloadProgressed,
  fileDownloadRequested,
} from './bulk-download-slice';
import { bulkOrderInitialized } from './bulk-progress-actions';
import {
  type BulkFilesReply,
  type BulkFixReply,
  bulkProgressApi,
  isFileAvailable,
  type RetryReply,
} from './bulk-progress-api';
import {
  bulkProgressReset,
  fileGenerationRetryFinished,
  fileGenerationRetryRequested,
  type ProgressUpdate,
  progressErrorShown,
  progressUpdated,
  progressWindowExpanded,
  progressWindowShown,
  retryFailed,
  retryRequested,
  retrySucceeded,
  timerTicked,
} from './bulk-progress-slice';
import { clearFollowedOrder, readFollowedOrder, saveFollowedOrder } from './bulk-progress-storage';

/** Spec doc 2 §9: the progress timer ticks every second. */
export const TICK_MS = 1000;

/** Spec doc 2 §8: the file check before a download. */
export const FILE_CHECK_FAILED = 'Failed to check file availability';

export const RETRY_MESSAGES = {
  failed: 'Failed to retry failed labels',
  unexpected: 'An error occurred during the retry attempt.',
  noFailedLabels: 'No failed labels found',
} as const;

const isTimerRunning = (state: RootState) => {
  const p = state.bulkProgress;
  return p.isVisible && p.orderId !== null && p.startTime !== null && !isTerminalBulkStatus(p.orderStatus);
};

/** Ticks while the window shows an unfinished order; any action may start or stop it. */
export function* runTimer(): SagaIterator {
  while (true) {
    const running: boolean = yield select(isTimerRunning);
    if (running) {
      yield put(timerTicked(Date.now()));
      yield delay(TICK_MS);
    } else {
      yield take('*');
    }
  }
}

export function* retryFailedLabels(): SagaIterator {
  const { orderId, orderStatus }: RootState['bulkProgress'] = yield select((s: RootState) => s.bulkProgress);
  if (!orderId) return;
  yield put(progressUpdated({ status: 'retrying_failed' }));
  try {
    const reply: RetryReply = yield call(bulkProgressApi.retryFailed, orderId);
    const stillFailed = Number(reply.finalFailedCount) || 0;
    yield put(
      retrySucceeded({
        update: {
          processedCount: reply.finalProcessedCount,
          failedCount: reply.finalFailedCount,
          refundedCount: reply.finalRefundedCount,
          totalCount: reply.updatedTotalCount,
          status: reply.status,
          fileData: reply.fileData,
        },
        retryError:
          stillFailed > 0
            ? `${Number(reply.newlySuccessfulCount) || 0} labels recovered. ${stillFailed} still failed.`
            : null,
      }),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && error.message.includes(RETRY_MESSAGES.noFailedLabels)) {
      // Someone (another tab, the sweeper) already recovered them: the order is simply complete.
      yield put(retrySucceeded({ update: { failedCount: 0, status: 'completed' }, retryError: null }));
      return;
    }
    const fallback =
      error instanceof ApiError && !error.isNetworkError ? RETRY_MESSAGES.failed : RETRY_MESSAGES.unexpected;
    yield put(retryFailed({ message: errorMessage(error, fallback), status: orderStatus }));
  }
}

/** Counts, status and files the fix answer carries. */
const fixUpdate = (reply: BulkFixReply): ProgressUpdate => ({
  processedCount: reply.processedCount,
  failedCount: reply.failedCount,
  refundedCount: reply.refundedCount,
  totalCount: reply.totalCount,
  status: reply.status,
  fileData: reply.fileData,
});

export function* retryFileGeneration(): SagaIterator {
  const orderId: string | null = yield select((s: RootState) => s.bulkProgress.orderId);
  if (!orderId) return;
  try {
    const reply: BulkFixReply = yield call(bulkProgressApi.fix, orderId);
    yield put(fileGenerationRetryFinished({ error: null, update: fixUpdate(reply) }));
  } catch (error) {
    yield put(fileGenerationRetryFinished({ error: errorMessage(error, 'Failed to fix batch order') }));
  }
}

const running = new Set<string>();

export function* downloadFile(action: PayloadAction<DownloadRequest>): SagaIterator {
  const { orderId, type } = action.payload;
  const key = downloadKey(orderId, type);
  if (running.has(key)) return;
  running.add(key);
  const progress = channel<number>();
  const abort = new AbortController();
  const reporter = yield fork(function* report(): SagaIterator {
    while (true) {
      const percent: number = yield take(progress);
      yield put(fileDownloadProgressed({ key, percent }));
    }
  });
  try {
    // The server is asked first whether the file exists, so a file that was never generated (or is
    // gone) is reported at once, with the file-generation retry, instead of after a failed download.
    if (!orderId) throw new DownloadError(DOWNLOAD_ERRORS.orderIdRequired);
    let files: BulkFilesReply;
    try {
      files = yield call(bulkProgressApi.files, orderId);
    } catch (error) {
      console.error('Bulk download: the file check failed', error);
      yield put(toastShown({ kind: 'error', message: errorMessage(error, FILE_CHECK_FAILED) }));
      return;
    }
    if (!isFileAvailable(files, type)) throw new DownloadError(DOWNLOAD_ERRORS.notFound, 404);
    let file: DownloadedFile;
    while (true) {
      try {
        file = yield call(fetchBulkFile, type, orderId, (p: number) => progress.put(p), abort.signal);
        break;
      } catch (error) {
        // Made on the server in the background (a bulk order's ZPL): shown as it goes, asked for again as told.
        if (!(error instanceof FilePreparing)) throw error;
        yield put(fileDownloadPreparing({ key, done: error.preparing.done, total: error.preparing.total }));
        yield delay(error.preparing.retryAfterMs);
      }
    }
    yield delay(COMPLETE_PAUSE_MS);
    yield put(fileDownloadProgressed({ key, percent: 100 }));
    yield call(saveBlob, file);
    yield put(toastShown({ kind: 'success', message: `${FILE_LABELS[type]} download completed successfully!` }));
  } catch (error) {
    const failure = error instanceof DownloadError ? error : new DownloadError(DOWNLOAD_ERRORS.fallback);
    yield put(toastShown({ kind: 'error', message: failure.message || DOWNLOAD_ERRORS.toastFallback }));
    if (failure.isFileNotFound) yield call(reopenWithError, orderId, failure.message);
  } finally {
    if (yield cancelled()) abort.abort();
    reporter.cancel();
    progress.close();
    running.delete(key);
    yield put(fileDownloadFinished(key));
  }
}

/** A missing file brings the window back for its order, showing the error and the file-generation retry. */
function* reopenWithError(orderId: string, message: string): SagaIterator {
  const shown: RootState['bulkProgress'] = yield select((s: RootState) => s.bulkProgress);
  if (shown.orderId !== orderId || !shown.isVisible) {
    yield put(progressWindowShown({ orderId, startTime: Date.now() }));
  } else {
    yield put(progressWindowExpanded());
  }
  yield put(progressErrorShown({ error: message }));
}

function* persistFollowedOrder(): SagaIterator {
  const { orderId, startTime, source }: RootState['bulkProgress'] = yield select((s: RootState) => s.bulkProgress);
  if (orderId && startTime !== null) {
    yield call(saveFollowedOrder, { orderId, startTime, ...(source ? { source } : {}) });
  }
}

function* forgetFollowedOrder(): SagaIterator {
  yield call(clearFollowedOrder);
}

function* resetOnLogout(): SagaIterator {
  yield call(clearFollowedOrder);
  yield put(bulkProgressReset());
}

/** A reload while an order is followed shows its window again, with its clock where it was. */
function* restoreFollowedOrder(): SagaIterator {
  const token: string | null = yield select((s: RootState) => s.auth.token);
  const followed = readFollowedOrder();
  if (!token || !followed) return;
  yield put(progressWindowShown(followed));
}

export function* bulkProgressSaga(): SagaIterator {
  yield all([
    fork(restoreFollowedOrder),
    fork(runTimer),
    // Submits: one retry / fix at a time; the buttons are disabled meanwhile too.
    takeLeading(retryRequested.type, retryFailedLabels),
    takeLeading(fileGenerationRetryRequested.type, retryFileGeneration),
    // Each file downloads on its own; repeated clicks on the same file are dropped in downloadFile.
    takeEvery(fileDownloadRequested.type, downloadFile),
    takeEvery([bulkOrderInitialized.type, progressWindowShown.type], persistFollowedOrder),
    takeEvery(bulkProgressReset.type, forgetFollowedOrder),
    takeEvery(logoutRequested.type, resetOnLogout),
  ]);
}
