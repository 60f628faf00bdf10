import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeLatest, takeLeading } from 'redux-saga/effects';
import { errorMessage } from '../../../app/server-message';
import { toastShown } from '../../../components/toast-slice';
import { type AdminReferralBonusBody, type AdminReferralBonusReply, adminReferralBonusApi } from './referral-bonus-api';
import {
  referralBonusSettingsLoaded,
  referralBonusSettingsLoadFailed,
  referralBonusSettingsRequested,
  referralBonusSettingsSaved,
  referralBonusSettingsSaveFailed,
  referralBonusSettingsSaveRequested,
} from './referral-bonus-slice';

export const REFERRAL_BONUS_MESSAGES = {
  loadFailed: 'Failed to load the referral bonus',
  saveFailed: 'Failed to save the referral bonus',
} as const;

function* load(): SagaIterator {
  try {
    const reply: AdminReferralBonusReply = yield call(adminReferralBonusApi.get);
    yield put(referralBonusSettingsLoaded(reply));
  } catch (error) {
    console.error('Referral bonus: loading the settings failed', error);
    yield put(referralBonusSettingsLoadFailed(errorMessage(error, REFERRAL_BONUS_MESSAGES.loadFailed)));
  }
}

function* save(action: PayloadAction<AdminReferralBonusBody>): SagaIterator {
  try {
    const reply: AdminReferralBonusReply = yield call(adminReferralBonusApi.save, action.payload);
    yield put(referralBonusSettingsSaved(reply));
    yield put(toastShown({ kind: 'success', message: reply.message ?? 'Referral bonus saved' }));
  } catch (error) {
    console.error('Referral bonus: saving the settings failed', error);
    const message = errorMessage(error, REFERRAL_BONUS_MESSAGES.saveFailed);
    yield put(referralBonusSettingsSaveFailed(message));
    const detail = message === REFERRAL_BONUS_MESSAGES.saveFailed ? undefined : message;
    yield put(toastShown({ kind: 'error', message: REFERRAL_BONUS_MESSAGES.saveFailed, detail }));
  }
}

export function* referralBonusSettingsSaga(): SagaIterator {
  yield all([
    // Query: opening the page again replaces an earlier read.
    takeLatest(referralBonusSettingsRequested.type, load),
    // Submit: a double click saves once.
    takeLeading(referralBonusSettingsSaveRequested.type, save),
  ]);
}
