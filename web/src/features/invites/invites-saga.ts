import type { ReferralBonusTerms } from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeLatest } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import { referralBonusApi } from '../referral-bonus/referral-bonus-api';
import { type InvitedUser, invitesApi } from './invites-api';
import { invitesFailed, invitesLoaded, invitesRequested } from './invites-slice';

/** Spec doc 2 §8. */
export const INVITE_MESSAGES = {
  loadFailed: 'An error occurred while loading the data',
} as const;

/** The bonus terms are a nicety on this page: if they cannot be read, the page shows no bonus text. */
function* termsOrNone(): SagaIterator {
  try {
    return (yield call(referralBonusApi.terms)) as ReferralBonusTerms | null;
  } catch (error) {
    console.error('Invites: reading the referral bonus failed', error);
    return null;
  }
}

export function* loadInvites(action: PayloadAction<string>): SagaIterator {
  const userId = action.payload;
  try {
    const [referralCode, invitedUsers, terms]: [string, InvitedUser[], ReferralBonusTerms | null] = yield all([
      call(invitesApi.referralCode, userId),
      call(invitesApi.invitedUsers, userId),
      call(termsOrNone),
    ]);
    yield put(invitesLoaded({ referralCode, invitedUsers, terms }));
  } catch (error) {
    console.error('Invites: loading failed', error);
    yield put(invitesFailed(errorMessage(error, INVITE_MESSAGES.loadFailed)));
  }
}

export function* invitesSaga(): SagaIterator {
  // Query: a newer load (another user after login-as) replaces an older one.
  yield takeLatest(invitesRequested.type, loadInvites);
}
