import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeLatest } from 'redux-saga/effects';
import { dashboardApi, type RecentDeposit, type RecentOrder } from './dashboard-api';
import {
  dashboardLoadFinished,
  dashboardRequested,
  recentDepositsLoaded,
  recentOrdersLoaded,
  totalOrdersLoaded,
} from './dashboard-slice';

// Spec: a dashboard fetch failure is only logged; the page keeps zeros and empty tables.

function* loadTotalOrders(userId: string): SagaIterator {
  try {
    const reply: { totalOrders: number } = yield call(dashboardApi.totalOrders, userId);
    yield put(totalOrdersLoaded(Number(reply.totalOrders) || 0));
  } catch (error) {
    console.error('Dashboard: loading total orders failed', error);
  }
}

function* loadRecentOrders(userId: string): SagaIterator {
  try {
    const reply: { recentOrders: RecentOrder[] } = yield call(dashboardApi.recentOrders, userId);
    yield put(recentOrdersLoaded(Array.isArray(reply.recentOrders) ? reply.recentOrders : []));
  } catch (error) {
    console.error('Dashboard: loading recent orders failed', error);
  }
}

function* loadRecentDeposits(userId: string): SagaIterator {
  try {
    const reply: RecentDeposit[] = yield call(dashboardApi.recentDeposits, userId);
    yield put(recentDepositsLoaded(Array.isArray(reply) ? reply : []));
  } catch (error) {
    console.error('Dashboard: loading recent deposits failed', error);
  }
}

export function* loadDashboard(action: PayloadAction<string>): SagaIterator {
  yield all([
    call(loadTotalOrders, action.payload),
    call(loadRecentOrders, action.payload),
    call(loadRecentDeposits, action.payload),
  ]);
  yield put(dashboardLoadFinished());
}

export function* dashboardSaga(): SagaIterator {
  // Query: a newer request (revisit, other user after login-as) replaces an older one.
  yield takeLatest(dashboardRequested.type, loadDashboard);
}
