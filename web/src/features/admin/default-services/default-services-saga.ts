import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { serverMessage } from '../../../app/server-message';
import { toastShown } from '../../../components/toast-slice';
import { checkPriceRanges } from '../services/price-ranges';
import {
  type ConfiguredService,
  defaultServicesApi,
  type PriceRange,
  type RawService,
  type ServiceChangeReply,
} from './default-services-api';
import {
  defaultServiceChanged,
  defaultServiceChangeFailed,
  defaultServicePricesSaveRequested,
  defaultServiceRenameRequested,
  defaultServicesFailed,
  defaultServicesLoaded,
  defaultServicesRequested,
  defaultServicesSynced,
  defaultServicesSyncFailed,
  defaultServicesSyncRequested,
  defaultServiceToggleRequested,
} from './default-services-slice';

/** Spec doc 3 §5, §8. */
export const DEFAULT_SERVICES_MESSAGES = {
  loadFailed: 'Failed to load services',
  syncFailed: 'Failed to sync services',
  synced: 'Services synchronized successfully',
  statusFailed: 'Failed to update service status',
  pricesFailed: 'Failed to update service prices',
  nameFailed: 'Failed to update service name',
  nameEmpty: 'Service name cannot be empty',
} as const;

/** Spec doc 3 §9: service messages close after 3 s. */
export const SERVICE_TOAST_DURATION = 3_000;

const toast = (kind: 'success' | 'error', message: string, detail?: string) =>
  put(toastShown({ kind, message, detail, duration: SERVICE_TOAST_DURATION }));

/** The spec's text first; what the server said, when it said something else, underneath. */
function failureToast(message: string, error: unknown) {
  return toast('error', message, serverMessage(error, { besides: message }));
}

function* load(): SagaIterator {
  try {
    const [services, rawServices]: [ConfiguredService[], RawService[] | null] = yield all([
      call(defaultServicesApi.list),
      // The carrier data only adds detail to the cards: without it the page still works.
      call(function* loadRaw(): SagaIterator {
        try {
          return yield call(defaultServicesApi.listRaw);
        } catch (error) {
          console.error('Default services: raw services could not be loaded', error);
          return null;
        }
      }),
    ]);
    yield put(defaultServicesLoaded({ services, rawServices: rawServices ?? [] }));
  } catch (error) {
    console.error('Default services: loading failed', error);
    yield put(defaultServicesFailed(DEFAULT_SERVICES_MESSAGES.loadFailed));
    yield failureToast(DEFAULT_SERVICES_MESSAGES.loadFailed, error);
  }
}

function* sync(): SagaIterator {
  try {
    const services: ConfiguredService[] = yield call(defaultServicesApi.sync);
    yield put(defaultServicesSynced(services));
    yield toast('success', DEFAULT_SERVICES_MESSAGES.synced);
  } catch (error) {
    console.error('Default services: sync failed', error);
    yield put(defaultServicesSyncFailed());
    yield failureToast(DEFAULT_SERVICES_MESSAGES.syncFailed, error);
  }
}

/** One change to one service: the reply's service replaces the card's, the reply's message is the toast. */
function* change(id: string, request: () => Promise<ServiceChangeReply>, failure: string): SagaIterator {
  try {
    const reply: ServiceChangeReply = yield call(request);
    yield put(defaultServiceChanged(reply.service));
    yield toast('success', reply.message);
  } catch (error) {
    console.error(`Default services: ${failure}`, error);
    yield put(defaultServiceChangeFailed(id));
    yield failureToast(failure, error);
  }
}

function* toggle(action: PayloadAction<{ id: string; enabled: boolean }>): SagaIterator {
  const { id, enabled } = action.payload;
  yield call(change, id, () => defaultServicesApi.toggle(id, enabled), DEFAULT_SERVICES_MESSAGES.statusFailed);
}

function* savePrices(action: PayloadAction<{ id: string; prices: PriceRange[]; maxWeight: number }>): SagaIterator {
  const { id, prices, maxWeight } = action.payload;
  // Checked here first so a list the server would refuse is never sent (spec doc 3 §5).
  const check = checkPriceRanges(prices, maxWeight);
  if (!check.ok) {
    yield put(defaultServiceChangeFailed(id));
    yield toast('error', check.message);
    return;
  }
  yield call(change, id, () => defaultServicesApi.updatePrices(id, prices), DEFAULT_SERVICES_MESSAGES.pricesFailed);
}

function* rename(action: PayloadAction<{ id: string; name: string }>): SagaIterator {
  const { id, name } = action.payload;
  if (name.trim() === '') {
    yield put(defaultServiceChangeFailed(id));
    yield toast('error', DEFAULT_SERVICES_MESSAGES.nameEmpty);
    return;
  }
  yield call(change, id, () => defaultServicesApi.rename(id, name.trim()), DEFAULT_SERVICES_MESSAGES.nameFailed);
}

export function* defaultServicesSaga(): SagaIterator {
  yield all([
    // Query: opening the page again replaces an older read.
    takeLatest(defaultServicesRequested.type, load),
    // Submit: a second click on sync while one runs must not start another.
    takeLeading(defaultServicesSyncRequested.type, sync),
    // Changes to different cards run side by side; a card's controls wait while its own change runs.
    takeEvery(defaultServiceToggleRequested.type, toggle),
    takeEvery(defaultServicePricesSaveRequested.type, savePrices),
    takeEvery(defaultServiceRenameRequested.type, rename),
  ]);
}
