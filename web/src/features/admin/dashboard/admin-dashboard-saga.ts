import type { SagaIterator } from 'redux-saga';
import { call, delay, put, race, take, takeLatest } from 'redux-saga/effects';
import { toastShown } from '../../../components/toast-slice';
import { type AdminDashboardReply, adminDashboardApi } from './admin-dashboard-api';
import {
  adminDashboardClosed,
  adminDashboardFailed,
  adminDashboardLoaded,
  adminDashboardOpened,
} from './admin-dashboard-slice';

/** The figures are read again this often while the dashboard is open. */
export const DASHBOARD_REFRESH_MS = 30_000;

/** Spec doc 3 §8. */
export const DASHBOARD_MESSAGES = {
  refreshFailed: 'Error refreshing data. Please reload the page.',
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

/** Reads now, then every 30 s, until the dashboard closes. */
function* poll(): SagaIterator {
  while (true) {
    const { closed } = yield race({ read: call(read), closed: take(adminDashboardClosed.type) });
    if (closed) return;
    const { wait } = yield race({ wait: delay(DASHBOARD_REFRESH_MS), stop: take(adminDashboardClosed.type) });
    if (!wait) return;
  }
}

export function* adminDashboardSaga(): SagaIterator {
  // Opening the dashboard again (the other route) replaces the running refresh: never two timers.
  yield takeLatest(adminDashboardOpened.type, poll);
}
