import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeLatest, takeLeading } from 'redux-saga/effects';
import { serverMessage } from '../../../app/server-message';
import { toastShown } from '../../../components/toast-slice';
import { type AdminUserRow, type InvitedUser, referralApi } from './referral-api';
import {
  invitedUsersFailed,
  invitedUsersLoaded,
  referralCodeFailed,
  referralCodeLoaded,
  referralCodeSaved,
  referralCodeSaveFailed,
  referralCodeSaveRequested,
  referralUserSelected,
} from './referral-slice';

/** Spec doc 3 §5, §8. */
export const REFERRAL_MESSAGES = {
  codeFailed: 'Failed to load referral code',
  invitedFailed: 'Failed to load invited users',
  saveFailed: 'Failed to update referral code',
  codeRequired: 'Referral code is required',
} as const;

/** The spec's text first; what the server said, when it said something else, underneath. */
const failureToast = (message: string, error: unknown) =>
  put(toastShown({ kind: 'error', message, detail: serverMessage(error, { besides: message }) }));

function* loadCode(userId: string): SagaIterator {
  try {
    const code: string = yield call(referralApi.referralCode, userId);
    yield put(referralCodeLoaded(code));
  } catch (error) {
    console.error('Referral management: loading the referral code failed', error);
    yield put(referralCodeFailed(REFERRAL_MESSAGES.codeFailed));
    yield failureToast(REFERRAL_MESSAGES.codeFailed, error);
  }
}

function* loadInvited(userId: string): SagaIterator {
  try {
    const invited: InvitedUser[] = yield call(referralApi.invitedUsers, userId);
    yield put(invitedUsersLoaded(invited));
  } catch (error) {
    console.error('Referral management: loading invited users failed', error);
    yield put(invitedUsersFailed(REFERRAL_MESSAGES.invitedFailed));
    yield failureToast(REFERRAL_MESSAGES.invitedFailed, error);
  }
}

function* loadSelected(action: PayloadAction<AdminUserRow>): SagaIterator {
  // Each part fails on its own: a missing code still shows the invited users.
  yield all([call(loadCode, action.payload._id), call(loadInvited, action.payload._id)]);
}

function* saveCode(action: PayloadAction<{ userId: string; referralCode: string }>): SagaIterator {
  const { userId, referralCode } = action.payload;
  try {
    const reply = yield call(referralApi.setReferralCode, userId, referralCode.trim());
    yield put(referralCodeSaved({ userId, referralCode: reply.user.referralCode }));
    yield put(toastShown({ kind: 'success', message: reply.message }));
  } catch (error) {
    console.error('Referral management: saving the referral code failed', error);
    yield put(referralCodeSaveFailed());
    // A code taken by someone else is the server's message, shown under the spec's text.
    yield failureToast(REFERRAL_MESSAGES.saveFailed, error);
  }
}

export function* referralSaga(): SagaIterator {
  yield all([
    // Query: only the answer for the latest typed text matters.
    // Query: picking another user replaces the reads for the previous one.
    takeLatest(referralUserSelected.type, loadSelected),
    // Submit: a double click saves once.
    takeLeading(referralCodeSaveRequested.type, saveCode),
  ]);
}
