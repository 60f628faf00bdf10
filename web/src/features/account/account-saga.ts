import type { AccountUpdateBody, AccountUpdateReply } from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, takeLeading } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import { tokenStorage } from '../../app/token-storage';
import { sessionRefreshed } from '../auth/auth-slice';
import { accountApi } from './account-api';
import { accountUpdateFailed, accountUpdateSubmitted, accountUpdateSucceeded } from './account-slice';

export function* updateAccount(action: PayloadAction<AccountUpdateBody>): SagaIterator {
  try {
    const reply: AccountUpdateReply = yield call(accountApi.update, action.payload);
    // A password change revokes older tokens: keep the fresh one or the next call fails.
    yield call([tokenStorage, tokenStorage.set], reply.token);
    yield put(sessionRefreshed({ token: reply.token, user: reply.user }));
    yield put(accountUpdateSucceeded(reply.message || 'Account updated successfully'));
  } catch (error) {
    yield put(accountUpdateFailed(errorMessage(error, 'Could not save your changes. Please try again.')));
  }
}

export function* accountSaga(): SagaIterator {
  // Submit: a double click must not send the change twice.
  yield takeLeading(accountUpdateSubmitted.type, updateAccount);
}
