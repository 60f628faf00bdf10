import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import { toastShown } from '../../components/toast-slice';
import { browserTimeZone, type CreateScanFormReply, type ScanFormsReply, scanFormsApi } from './scan-forms-api';
import {
  orderScanFormFinished,
  orderScanFormRequested,
  scanFormsFailed,
  scanFormsLoaded,
  scanFormsRequested,
  todayScanFormFinished,
  todayScanFormRequested,
} from './scan-forms-slice';

export const SCAN_FORM_TEXTS = {
  loadFailed: 'SCAN forms could not be loaded',
  createFailed: 'The SCAN form could not be created',
} as const;

export function* loadScanForms(action: PayloadAction<string>): SagaIterator {
  try {
    const reply: ScanFormsReply = yield call(scanFormsApi.list, action.payload, browserTimeZone());
    yield put(scanFormsLoaded(reply));
  } catch (error) {
    yield put(scanFormsFailed(errorMessage(error, SCAN_FORM_TEXTS.loadFailed)));
  }
}

function* told(reply: CreateScanFormReply): SagaIterator {
  yield put(toastShown({ kind: reply.refused.length > 0 ? 'info' : 'success', message: reply.message }));
}

export function* createOrderScanForm(action: PayloadAction<{ orderId: string; userId: string }>): SagaIterator {
  const { orderId, userId } = action.payload;
  try {
    const reply: CreateScanFormReply = yield call(scanFormsApi.createForOrder, orderId, browserTimeZone());
    yield call(told, reply);
  } catch (error) {
    yield put(toastShown({ kind: 'error', message: errorMessage(error, SCAN_FORM_TEXTS.createFailed) }));
  } finally {
    yield put(orderScanFormFinished(orderId));
  }
  // The list says which forms the order has now, and what is left without one.
  yield put(scanFormsRequested(userId));
}

export function* createTodayScanForm(action: PayloadAction<{ userId: string }>): SagaIterator {
  const { userId } = action.payload;
  try {
    const reply: CreateScanFormReply = yield call(scanFormsApi.createForToday, userId, browserTimeZone());
    yield call(told, reply);
  } catch (error) {
    yield put(toastShown({ kind: 'error', message: errorMessage(error, SCAN_FORM_TEXTS.createFailed) }));
  } finally {
    yield put(todayScanFormFinished());
  }
  yield put(scanFormsRequested(userId));
}

export function* scanFormsSaga(): SagaIterator {
  yield all([
    // Query: a newer read replaces an older one.
    takeLatest(scanFormsRequested.type, loadScanForms),
    // Each order's form on its own; its button is disabled while it is made (the server makes one at a time).
    takeEvery(orderScanFormRequested.type, createOrderScanForm),
    // One form for today at a time: a double click is dropped.
    takeLeading(todayScanFormRequested.type, createTodayScanForm),
  ]);
}
