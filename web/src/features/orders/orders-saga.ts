import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeLatest } from 'redux-saga/effects';
import { toastShown } from '../../components/toast-slice';
import { type OrderListItem, type OrdersReply, ordersApi } from './orders-api';
import { selectOrdersTrackingFilter } from './orders-selectors';
import { ordersLoaded, ordersRequested } from './orders-slice';

const time = (order: OrderListItem) => {
  const t = new Date(order.createdAt).getTime();
  return Number.isNaN(t) ? 0 : t;
};

/** Newest first (spec doc 2 §7), whatever order the server sends. */
export const newestFirst = (orders: OrderListItem[]) => [...orders].sort((a, b) => time(b) - time(a));

export function* loadOrders(action: PayloadAction<string>): SagaIterator {
  try {
    const tracking = yield select(selectOrdersTrackingFilter);
    const reply: Partial<OrdersReply> = yield call(ordersApi.list, action.payload, tracking);
    yield put(ordersLoaded(newestFirst(Array.isArray(reply?.orders) ? reply.orders : [])));
  } catch (error) {
    console.error('Orders: loading failed', error);
    yield put(ordersLoaded([]));
    yield put(toastShown({ kind: 'error', message: 'Error loading orders' }));
  }
}

export function* ordersSaga(): SagaIterator {
  // Query: a revisit (or another user after login-as) replaces an older request.
  yield takeLatest(ordersRequested.type, loadOrders);
}
