import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, takeLatest } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import { type LabelTrackingReply, trackingApi } from './tracking-api';
import { trackingFailed, trackingLoaded, trackingOpened } from './tracking-slice';

export const TRACKING_TEXTS = { failed: 'The tracking of this label could not be loaded' } as const;

export function* loadTracking(action: PayloadAction<{ labelId: string }>): SagaIterator {
  const { labelId } = action.payload;
  try {
    const reply: LabelTrackingReply = yield call(trackingApi.labelTracking, labelId);
    yield put(trackingLoaded(reply));
  } catch (error) {
    yield put(trackingFailed({ labelId, error: errorMessage(error, TRACKING_TEXTS.failed) }));
  }
}

export function* trackingSaga(): SagaIterator {
  // Query: opening another label's events replaces the answer still awaited.
  yield takeLatest(trackingOpened.type, loadTracking);
}
