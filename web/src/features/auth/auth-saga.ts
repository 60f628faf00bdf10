import type {
  LoginBody,
  LoginReply,
  ReferralApplyReply,
  ReferralBonusTerms,
  RegisterBody,
  RegisterReply,
  VerifyReply,
} from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import { type EventChannel, eventChannel, type SagaIterator } from 'redux-saga';
import { all, call, put, select, take, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { ApiError, onSessionEnded } from '../../app/http';
import { errorMessage } from '../../app/server-message';
import type { RootState } from '../../app/store';
import { tokenImpersonatorId } from '../../app/token-claims';
import { adminSessionStorage, type KeptAdminSession, tokenStorage } from '../../app/token-storage';
import { referralBonusApi } from '../referral-bonus/referral-bonus-api';
import { authApi } from './auth-api';
import {
  impersonationEnded,
  impersonationStarted,
  loginFailed,
  loginSubmitted,
  loginSucceeded,
  logoutRequested,
  referralApplyFailed,
  referralApplySubmitted,
  referralApplySucceeded,
  referralTermsLoaded,
  referralTermsRequested,
  registerFailed,
  registerSubmitted,
  registerSucceeded,
  sessionEnded,
  sessionRefreshed,
  sessionVerified,
  sessionVerifyFailed,
  sessionVerifyRequested,
} from './auth-slice';

export function* login(action: PayloadAction<LoginBody>): SagaIterator {
  try {
    const reply: LoginReply = yield call(authApi.login, action.payload);
    yield call([tokenStorage, tokenStorage.set], reply.token);
    yield call([adminSessionStorage, adminSessionStorage.clear]);
    yield put(loginSucceeded({ token: reply.token, user: reply.user }));
  } catch (error) {
    yield put(loginFailed(errorMessage(error, 'Login failed')));
  }
}

export function* register(action: PayloadAction<RegisterBody>): SagaIterator {
  try {
    const reply: RegisterReply = yield call(authApi.register, action.payload);
    yield call([tokenStorage, tokenStorage.set], reply.token);
    yield call([adminSessionStorage, adminSessionStorage.clear]);
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
    yield call([adminSessionStorage, adminSessionStorage.clear]);
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

/** The referral bonus register and onboarding state; if it cannot be read, they promise nothing rather than fail. */
export function* loadReferralTerms(): SagaIterator {
  try {
    const terms: ReferralBonusTerms | null = yield call(referralBonusApi.terms);
    yield put(referralTermsLoaded(terms));
  } catch (error) {
    console.error('Onboarding: reading the referral bonus failed', error);
    yield put(referralTermsLoaded(null));
  }
}

/**
 * Ends the admin's Login As tokens on the server, so a copy of one (another tab, a leaked link) stops working
 * now rather than when it expires. Nothing the admin can act on if it fails: logged, and the token still
 * expires on its own.
 */
export function* endLoginAsOnServer(): SagaIterator {
  try {
    yield call(authApi.endLoginAs);
  } catch (error) {
    console.error('Could not end the Login As session on the server', error);
  }
}

export function* logout(): SagaIterator {
  // Signing out while signed in as a user ends that Login As token too (sent with it, the last call it makes).
  const token: string | null = yield call([tokenStorage, tokenStorage.get]);
  const kept: KeptAdminSession | null = yield call([adminSessionStorage, adminSessionStorage.get]);
  if (kept || tokenImpersonatorId(token)) yield call(endLoginAsOnServer);
  yield call([tokenStorage, tokenStorage.clear]);
  // Logging out while signed in as a user also drops the admin's kept token.
  yield call([adminSessionStorage, adminSessionStorage.clear]);
}

/** Writes the session the reducer just switched to (Login As, or back to admin) where a reload finds it. */
export function* storeSwitchedSession(): SagaIterator {
  const { token, impersonator }: RootState['auth'] = yield select((state: RootState) => state.auth);
  if (token) yield call([tokenStorage, tokenStorage.set], token);
  if (impersonator) yield call([adminSessionStorage, adminSessionStorage.set], impersonator);
  else yield call([adminSessionStorage, adminSessionStorage.clear]);
}

/**
 * Back to admin: the admin's session is stored first, then the Login As token is ended on the server, asked
 * with the admin's own token, which works even when the Login As one has just expired (and an answer refusing
 * that one would end the admin's session here too).
 */
export function* backToAdmin(): SagaIterator {
  yield call(storeSwitchedSession);
  yield call(endLoginAsOnServer);
}

/** Each time an answer says the session is over (see `onSessionEnded`). */
export function sessionEndedChannel(): EventChannel<true> {
  return eventChannel<true>((emit) => onSessionEnded(() => emit(true)));
}

/**
 * A user blocked or signed out elsewhere while on a page: whichever call hears
 * it first ends the session here too, and the guard sends them to /login.
 */
export function* endSessionsWhenTold(): SagaIterator {
  const channel: EventChannel<true> = yield call(sessionEndedChannel);
  try {
    while (true) {
      yield take(channel);
      yield call([tokenStorage, tokenStorage.clear]);
      yield call([adminSessionStorage, adminSessionStorage.clear]);
      yield put(sessionEnded());
    }
  } finally {
    channel.close();
  }
}

export function* authSaga(): SagaIterator {
  yield all([
    // Submits: ignore repeated clicks while one request is in flight.
    takeLeading(loginSubmitted.type, login),
    takeLeading(registerSubmitted.type, register),
    takeLeading(referralApplySubmitted.type, applyReferral),
    // Query: only the newest answer matters (a later refresh supersedes an earlier one).
    takeLatest(sessionVerifyRequested.type, verifySession),
    takeLatest(referralTermsRequested.type, loadReferralTerms),
    takeLatest(logoutRequested.type, logout),
    // Each switch writes the state it left behind; none may be skipped.
    takeEvery(impersonationStarted.type, storeSwitchedSession),
    takeEvery(impersonationEnded.type, backToAdmin),
    call(endSessionsWhenTold),
  ]);
}
