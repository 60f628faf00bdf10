import type { AddSkuReply, SkuDataReply, SkuResult } from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeEvery, takeLatest } from 'redux-saga/effects';
import { serverMessage } from '../../app/server-message';
import { settlePendingRequest } from '../../components/data-table-requests';
import { toastShown } from '../../components/toast-slice';
import { skuApi } from './sku-api';
import { SKU_MESSAGES, SKU_TOAST_DURATION } from './sku-messages';
import {
  type SkuAddRequest,
  type SkuDeleteRequest,
  type SkuUpdateRequest,
  type SkuUploadRequest,
  skuAddSubmitted,
  skuDeleted,
  skuDeleteSubmitted,
  skusLoaded,
  skusLoadFailed,
  skusRequested,
  skuUpdated,
  skuUpdateSubmitted,
  skuUploadSubmitted,
} from './sku-slice';

const toast = (kind: 'success' | 'error', message: string, detail?: string) =>
  put(toastShown({ kind, message, detail, duration: SKU_TOAST_DURATION }));

export function* loadSkus(action: PayloadAction<string>): SagaIterator {
  try {
    const reply: SkuDataReply = yield call(skuApi.list, action.payload);
    yield put(skusLoaded(Array.isArray(reply.SkuData) ? reply.SkuData : []));
  } catch (error) {
    yield put(skusLoadFailed());
    yield toast('error', SKU_MESSAGES.fetchFailed, serverMessage(error));
  }
}

function* addSku(action: PayloadAction<SkuAddRequest>): SagaIterator {
  const { requestId, userId, fields } = action.payload;
  try {
    const reply: AddSkuReply = yield call(skuApi.add, userId, [fields]);
    yield put(skusLoaded(reply.SkuData));
    yield toast('success', SKU_MESSAGES.added);
    yield call(settlePendingRequest, requestId, { ok: true });
  } catch (error) {
    yield toast('error', SKU_MESSAGES.addFailed, serverMessage(error));
    // The form puts the server's message on the field it names.
    yield call(settlePendingRequest, requestId, { ok: false, message: serverMessage(error) ?? '' });
  }
}

function* uploadSkus(action: PayloadAction<SkuUploadRequest>): SagaIterator {
  const { requestId, userId, rows } = action.payload;
  try {
    const reply: AddSkuReply = yield call(skuApi.add, userId, rows);
    yield put(skusLoaded(reply.SkuData));
    yield toast('success', SKU_MESSAGES.uploaded);
    yield call(settlePendingRequest, requestId, { ok: true });
  } catch (error) {
    // "Row 3: Weight must be greater than 0" tells the user which line of the file to fix.
    yield toast('error', SKU_MESSAGES.uploadFailed, serverMessage(error));
    yield call(settlePendingRequest, requestId, { ok: false, message: serverMessage(error) ?? '' });
  }
}

function* updateSku(action: PayloadAction<SkuUpdateRequest>): SagaIterator {
  const { requestId, userId, id, fields } = action.payload;
  try {
    const reply: SkuResult = yield call(skuApi.update, userId, id, fields);
    if (reply.sku) yield put(skuUpdated(reply.sku));
    else yield call(loadSkus, skusRequested(userId));
    // The table shows its own "Row updated successfully!" with this under it.
    yield call(settlePendingRequest, requestId, { ok: true, message: reply.message });
  } catch (error) {
    yield call(settlePendingRequest, requestId, { ok: false, message: serverMessage(error) ?? '' });
  }
}

function* deleteSku(action: PayloadAction<SkuDeleteRequest>): SagaIterator {
  const { requestId, id } = action.payload;
  try {
    const reply: SkuResult = yield call(skuApi.remove, id);
    yield put(skuDeleted(id));
    yield call(settlePendingRequest, requestId, { ok: true, message: reply.message });
  } catch (error) {
    yield call(settlePendingRequest, requestId, { ok: false, message: serverMessage(error) ?? '' });
  }
}

export function* skuSaga(): SagaIterator {
  yield all([
    // Query: a newer load (revisit, other user after login-as) supersedes an older one.
    takeLatest(skusRequested.type, loadSkus),
    // Writes: every request carries a pending promise that must settle, so none may be dropped; the dialog,
    // the upload button and the table already block a second submit while one runs.
    takeEvery(skuAddSubmitted.type, addSku),
    takeEvery(skuUploadSubmitted.type, uploadSkus),
    takeEvery(skuUpdateSubmitted.type, updateSku),
    takeEvery(skuDeleteSubmitted.type, deleteSku),
  ]);
}
