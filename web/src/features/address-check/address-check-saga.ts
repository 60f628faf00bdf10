import { ADDRESS_CHECK_UNAVAILABLE, type AddressCheck } from '@flatship/proto';
import type { Action } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, delay, put, takeLatest } from 'redux-saga/effects';
import { addressCheckApi } from './address-check-api';
import { addressChecked, addressCheckRequested, type CheckSide } from './address-check-slice';

/** An address is checked once the user stops typing for this long. */
export const CHECK_DEBOUNCE_MS = 400;

type Requested = ReturnType<typeof addressCheckRequested>;

export function* checkAddress(action: Requested): SagaIterator {
  const { side, key, address, serviceUid } = action.payload;
  // takeLatest cancels this wait when the user keeps typing, so only the address they stopped at is asked about.
  yield delay(CHECK_DEBOUNCE_MS);
  let check: AddressCheck;
  try {
    check = yield call(addressCheckApi.verify, address, serviceUid);
  } catch {
    // A check that cannot be made never stops a purchase: the form says so and lets the buyer go on.
    check = { verdict: 'unavailable', message: ADDRESS_CHECK_UNAVAILABLE };
  }
  yield put(addressChecked({ side, key, check }));
}

const requestedFor =
  (side: CheckSide) =>
  (action: Action): action is Requested =>
    addressCheckRequested.match(action) && action.payload.side === side;

export function* addressCheckSaga(): SagaIterator {
  // Queries, one per side: a newer address replaces the one still waiting, so a stale answer never shows.
  yield all([takeLatest(requestedFor('from'), checkAddress), takeLatest(requestedFor('to'), checkAddress)]);
}
