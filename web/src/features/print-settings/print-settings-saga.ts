import type { PrintFormat, PrintSettings, PrintSettingsReply } from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, takeLatest } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import { printSettingsApi } from './print-settings-api';
import {
  printFormatSaved,
  printFormatSaveFailed,
  printFormatSubmitted,
  printSettingsLoaded,
  printSettingsLoadFailed,
  printSettingsRequested,
} from './print-settings-slice';

export const PRINT_SETTINGS_ERRORS = {
  load: 'Could not load your print setting. Please try again.',
  save: 'Could not save your print setting. Please try again.',
} as const;

export function* loadPrintSettings(action: PayloadAction<{ userId: string }>): SagaIterator {
  try {
    const reply: PrintSettings = yield call(printSettingsApi.get, action.payload.userId);
    yield put(printSettingsLoaded(reply.labelFormat));
  } catch (error) {
    yield put(printSettingsLoadFailed(errorMessage(error, PRINT_SETTINGS_ERRORS.load)));
  }
}

export function* savePrintFormat(action: PayloadAction<{ userId: string; labelFormat: PrintFormat }>): SagaIterator {
  try {
    const reply: PrintSettingsReply = yield call(
      printSettingsApi.save,
      action.payload.userId,
      action.payload.labelFormat,
    );
    yield put(printFormatSaved({ labelFormat: reply.labelFormat, message: reply.message }));
  } catch (error) {
    yield put(printFormatSaveFailed(errorMessage(error, PRINT_SETTINGS_ERRORS.save)));
  }
}

export function* printSettingsSaga(): SagaIterator {
  // Reads: only the newest answer matters.
  yield takeLatest(printSettingsRequested.type, loadPrintSettings);
  // Saves: the last choice made is the one to keep, so a newer one replaces one still on its way.
  yield takeLatest(printFormatSubmitted.type, savePrintFormat);
}
