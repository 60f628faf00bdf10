import type { Address, AddressResult, SavedAddressReply } from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeEvery, takeLatest } from 'redux-saga/effects';
import { serverMessage } from '../../app/server-message';
import { settlePendingRequest } from '../../components/data-table-requests';
import { toastShown } from '../../components/toast-slice';
import { addressApi } from './address-api';
import { ADDRESS_MESSAGES } from './address-messages';
import {
  type AddressAddRequest,
  type AddressDeleteRequest,
  type AddressUpdateRequest,
  addressAdded,
  addressAddSubmitted,
  addressDeleted,
  addressDeleteSubmitted,
  addressesLoaded,
  addressesLoadFailed,
  addressesRequested,
  addressUpdated,
  addressUpdateSubmitted,
} from './address-slice';

/** "Failed to update address — This Address ID already exists": the screen's text, then the server's reason. */
function withReason(fallback: string, error: unknown): string {
  const reason = serverMessage(error);
  return reason ? `${fallback} — ${reason}` : fallback;
}

export function* loadAddresses(action: PayloadAction<string>): SagaIterator {
  try {
    const reply: SavedAddressReply = yield call(addressApi.list, action.payload);
    yield put(addressesLoaded(Array.isArray(reply.savedAddress) ? reply.savedAddress : []));
  } catch (error) {
    yield put(addressesLoadFailed());
    yield put(toastShown({ kind: 'error', message: ADDRESS_MESSAGES.loadFailed, detail: serverMessage(error) }));
  }
}

export function* addAddress(action: PayloadAction<AddressAddRequest>): SagaIterator {
  const { requestId, userId, fields } = action.payload;
  try {
    const reply: AddressResult = yield call(addressApi.add, userId, fields);
    if (reply.address) yield put(addressAdded(reply.address));
    else yield call(loadAddresses, addressesRequested(userId));
    yield put(toastShown({ kind: 'success', message: ADDRESS_MESSAGES.added }));
    yield call(settlePendingRequest, requestId, { ok: true });
  } catch (error) {
    yield put(toastShown({ kind: 'error', message: ADDRESS_MESSAGES.addFailed, detail: serverMessage(error) }));
    // The form puts the server's message on the field it names.
    yield call(settlePendingRequest, requestId, { ok: false, message: serverMessage(error) ?? '' });
  }
}

export function* updateAddress(action: PayloadAction<AddressUpdateRequest>): SagaIterator {
  const { requestId, userId, id, fields } = action.payload;
  try {
    const reply: AddressResult = yield call(addressApi.update, userId, id, fields);
    const updated: Address = reply.address ?? { _id: id, ...fields };
    yield put(addressUpdated(updated));
    // The table shows its own "Row updated successfully!" with this under it.
    yield call(settlePendingRequest, requestId, { ok: true, message: ADDRESS_MESSAGES.updated });
  } catch (error) {
    yield call(settlePendingRequest, requestId, {
      ok: false,
      message: withReason(ADDRESS_MESSAGES.updateFailed, error),
    });
  }
}

export function* deleteAddress(action: PayloadAction<AddressDeleteRequest>): SagaIterator {
  const { requestId, userId, id } = action.payload;
  try {
    yield call(addressApi.remove, userId, id);
    yield put(addressDeleted(id));
    yield call(settlePendingRequest, requestId, { ok: true, message: ADDRESS_MESSAGES.deleted });
  } catch (error) {
    yield call(settlePendingRequest, requestId, {
      ok: false,
      message: withReason(ADDRESS_MESSAGES.deleteFailed, error),
    });
  }
}

export function* addressSaga(): SagaIterator {
  yield all([
    // Query: a newer load (revisit, other user after login-as) supersedes an older one.
    takeLatest(addressesRequested.type, loadAddresses),
    // Writes: every request carries a pending promise that must settle, so none may be
    // dropped; the form and the table already block a second submit while one runs.
    takeEvery(addressAddSubmitted.type, addAddress),
    takeEvery(addressUpdateSubmitted.type, updateAddress),
    takeEvery(addressDeleteSubmitted.type, deleteAddress),
  ]);
}
