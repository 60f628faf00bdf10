import type { SagaIterator } from 'redux-saga';
import { all, call, delay, put, race, take, takeLatest } from 'redux-saga/effects';
import { errorMessage } from '../../../app/server-message';
import { toastShown } from '../../../components/toast-slice';
import { type AdminDashboardReply, adminDashboardApi, type CarrierBalanceReply } from './admin-dashboard-api';
import {
  adminDashboardClosed,
  adminDashboardFailed,
  adminDashboardLoaded,
  adminDashboardOpened,
  carrierBalanceFailed,
  carrierBalanceLoaded,
} from './admin-dashboard-slice';

/** The figures are read again this often while the dashboard is open. */
export const DASHBOARD_REFRESH_MS = 30_000;

export const DASHBOARD_MESSAGES = {
  /** Spec doc 3 §8. */
  refreshFailed: 'Error refreshing data. Please reload the page.',
  /** When the server gives no words of its own (it could not be reached at all). */
  balanceFailed: 'The carrier balance could not be read. It is read again in a moment.',
} as const;

function* read(): SagaIterator {
  try {
    const figures: AdminDashboardReply = yield call(adminDashboardApi.get);
    yield put(adminDashboardLoaded(figures));
  } catch (error) {
    console.error('Admin dashboard: reading the figures failed', error);
    yield put(adminDashboardFailed(DASHBOARD_MESSAGES.refreshFailed));
    yield put(toastShown({ kind: 'error', message: DASHBOARD_MESSAGES.refreshFailed }));
  }
}

/** The card says what went wrong (the server's words: e.g. the carrier did not answer); no toast, the figures are fine. */
function* readCarrierBalance(): SagaIterator {
  try {
    const reply: CarrierBalanceReply = yield call(adminDashboardApi.carrierBalance);
    yield put(carrierBalanceLoaded(reply));
  } catch (error) {
    console.error('Admin dashboard: reading the carrier balance failed', error);
    yield put(carrierBalanceFailed(errorMessage(error, DASHBOARD_MESSAGES.balanceFailed)));
  }
}

/** Reads the figures and the carrier balance now, then every 30 s, until the dashboard closes. */
function* poll(): SagaIterator {
  while (true) {
    const { closed } = yield race({
      read: all([call(read), call(readCarrierBalance)]),
      closed: take(adminDashboardClosed.type),
    });
    if (closed) return;
    const { wait } = yield race({ wait: delay(DASHBOARD_REFRESH_MS), stop: take(adminDashboardClosed.type) });
    if (!wait) return;
  }
}

export function* adminDashboardSaga(): SagaIterator {
  // Opening the dashboard again (the other route) replaces the running refresh: never two timers.
  yield takeLatest(adminDashboardOpened.type, poll);
}
