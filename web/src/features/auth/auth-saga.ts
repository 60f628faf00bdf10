import type {
  LoginBody,
  LoginReply,
  ReferralApplyReply,
  RegisterBody,
  RegisterReply,
  VerifyReply,
} from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeLatest, takeLeading } from 'redux-saga/effects';
import { ApiError, errorMessage } from '../../app/http';
import { tokenStorage } from '../../app/token-storage';
import { authApi } from './auth-api';
import {
  loginFailed,
  loginSubmitted,
  loginSucceeded,
  logoutRequested,
  referralApplyFailed,
  referralApplySubmitted,
  referralApplySucceeded,
  registerFailed,
  registerSubmitted,
  registerSucceeded,
  sessionRefreshed,
  sessionVerified,
  sessionVerifyFailed,
  sessionVerifyRequested,
} from './auth-slice';

export function* login(action: PayloadAction<LoginBody>): SagaIterator {
  try {
    const reply: LoginReply = yield call(authApi.login, action.payload);
    yield call([tokenStorage, tokenStorage.set], reply.token);
    yield put(loginSucceeded({ token: reply.token, user: reply.user }));
  } catch (error) {
    yield put(loginFailed(errorMessage(error, 'Login failed')));
  }
}

export function* register(action: PayloadAction<RegisterBody>): SagaIterator {
  try {
    const reply: RegisterReply = yield call(authApi.register, action.payload);
    yield call([tokenStorage, tokenStorage.set], reply.token);
    yield put(registerSucceeded({ token: reply.token, user: reply.user }));
  } catch (error) {
    const fallback =
      error instanceof ApiError && error.isNetworkError
        ? 'An error occurred. Please try again.'
        : 'Registration failed';
    yield put(registerFailed(errorMessage(error, fallback)));
  }
}

export function* verifySession(): SagaIterator {
  try {
    const reply: VerifyReply = yield call(authApi.verify);
    yield put(sessionVerified(reply.user));
  } catch (error) {
    // A rejected token is dropped; an unreachable server is treated the same so
    // the guard never leaves the user on an endless loader.
    const isRejected = error instanceof ApiError && (error.status === 401 || error.status === 403);
    if (!isRejected) console.error('Session verification failed', error);
    yield call([tokenStorage, tokenStorage.clear]);
    yield put(sessionVerifyFailed());
  }
}

export function* applyReferral(action: PayloadAction<string>): SagaIterator {
  try {
    const reply: Partial<ReferralApplyReply> = yield call(authApi.applyReferral, action.payload);
    if (reply.token && reply.user) {
      yield call([tokenStorage, tokenStorage.set], reply.token);
      yield put(sessionRefreshed({ token: reply.token, user: reply.user }));
    }
    yield put(referralApplySucceeded());
  } catch (error) {
    yield put(referralApplyFailed(errorMessage(error, 'Failed to apply referral code')));
  }
}

export function* logout(): SagaIterator {
  yield call([tokenStorage, tokenStorage.clear]);
}

export function* authSaga(): SagaIterator {
  yield all([
    // Submits: ignore repeated clicks while one request is in flight.
    takeLeading(loginSubmitted.type, login),
    takeLeading(registerSubmitted.type, register),
    takeLeading(referralApplySubmitted.type, applyReferral),
    // Query: only the newest answer matters (a later refresh supersedes an earlier one).
    takeLatest(sessionVerifyRequested.type, verifySession),
    takeLatest(logoutRequested.type, logout),
  ]);
}
