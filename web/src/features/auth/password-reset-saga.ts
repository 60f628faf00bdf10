import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeLeading } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import { passwordResetApi } from './password-reset-api';
import {
  newPasswordFailed,
  newPasswordSaved,
  newPasswordSubmitted,
  resetLinkFailed,
  resetLinkRequested,
  resetLinkSent,
} from './password-reset-slice';

export const PASSWORD_RESET_MESSAGES = {
  linkFailed: 'Failed to send the reset link. Please try again.',
  resetFailed: 'Failed to reset the password. Please try again.',
} as const;

export function* requestResetLink(action: PayloadAction<string>): SagaIterator {
  try {
    const reply = yield call(passwordResetApi.requestLink, action.payload);
    yield put(resetLinkSent(reply.message));
  } catch (error) {
    yield put(resetLinkFailed(errorMessage(error, PASSWORD_RESET_MESSAGES.linkFailed)));
  }
}

export function* saveNewPassword(action: PayloadAction<{ token: string; password: string }>): SagaIterator {
  try {
    const reply = yield call(passwordResetApi.reset, action.payload.token, action.payload.password);
    yield put(newPasswordSaved(reply.message));
  } catch (error) {
    yield put(newPasswordFailed(errorMessage(error, PASSWORD_RESET_MESSAGES.resetFailed)));
  }
}

export function* passwordResetSaga(): SagaIterator {
  yield all([
    // Submits: a double click must not send two emails or spend the link twice.
    takeLeading(resetLinkRequested.type, requestResetLink),
    takeLeading(newPasswordSubmitted.type, saveNewPassword),
  ]);
}
