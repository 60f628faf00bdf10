import type { ConfiguredService, InitializeUserServicesReply, ServiceChangeReply } from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeEvery, takeLatest } from 'redux-saga/effects';
import { serverMessage } from '../../../app/server-message';
import { toastShown } from '../../../components/toast-slice';
import { userServicesApi } from './user-services-api';
import { SERVICE_TOAST_DURATION, USER_SERVICES_MESSAGES } from './user-services-messages';
import {
  type ServiceTarget,
  serviceChangeSettled,
  servicePricesSubmitted,
  serviceToggleSubmitted,
  userServicesLoaded,
  userServicesLoadFailed,
  userServicesOpened,
} from './user-services-slice';

const toast = (kind: 'success' | 'error', message: string, detail?: string) =>
  put(toastShown({ kind, message, detail, duration: SERVICE_TOAST_DURATION }));

/** Spec doc 3 §2: a user without services gets them initialised first, then they are shown. */
export function* loadUserServices(action: PayloadAction<string>): SagaIterator {
  const userId = action.payload;
  try {
    let services: ConfiguredService[] = yield call(userServicesApi.list, userId);
    if (services.length === 0) {
      const reply: InitializeUserServicesReply = yield call(userServicesApi.initialize, userId);
      services = reply.services;
    }
    yield put(userServicesLoaded({ userId, services }));
  } catch (error) {
    yield put(userServicesLoadFailed(userId));
    yield toast('error', USER_SERVICES_MESSAGES.loadFailed, serverMessage(error));
  }
}

function* runChange(target: ServiceTarget, failure: string, send: () => Promise<ServiceChangeReply>): SagaIterator {
  try {
    const reply: ServiceChangeReply = yield call(send);
    yield toast('success', reply.message);
    yield put(serviceChangeSettled({ ...target, service: reply.service }));
  } catch (error) {
    yield toast('error', failure, serverMessage(error));
    yield put(serviceChangeSettled(target));
  }
}

function* toggleService(action: ReturnType<typeof serviceToggleSubmitted>): SagaIterator {
  const { userId, serviceId, enabled } = action.payload;
  yield call(runChange, { userId, serviceId }, USER_SERVICES_MESSAGES.toggleFailed, () =>
    userServicesApi.toggle(userId, serviceId, enabled),
  );
}

function* saveServicePrices(action: ReturnType<typeof servicePricesSubmitted>): SagaIterator {
  const { userId, serviceId, prices } = action.payload;
  yield call(runChange, { userId, serviceId }, USER_SERVICES_MESSAGES.pricesFailed, () =>
    userServicesApi.savePrices(userId, serviceId, prices),
  );
}

export function* userServicesSaga(): SagaIterator {
  yield all([
    // Query: opening the overlay for another user supersedes the earlier load.
    takeLatest(userServicesOpened.type, loadUserServices),
    // Changes to different services are independent; a service's controls wait while its change runs.
    takeEvery(serviceToggleSubmitted.type, toggleService),
    takeEvery(servicePricesSubmitted.type, saveServicePrices),
  ]);
}
