import type {
  Address,
  AvailableService,
  OrderCreateBody,
  OrderCreateReply,
  QuoteReply,
  SavedAddressReply,
} from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, delay, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import { ApiError } from '../../app/http';
import { toastShown } from '../../components/toast-slice';
import { addressApi } from '../addresses/address-api';
import { selectUser } from '../auth/auth-selectors';
import { sessionVerifyRequested } from '../auth/auth-slice';
import type { SessionUser } from '../auth/session-user';
import { orderLabelApi } from './order-label-api';
import { labelOrderErrorMessage, newIdempotencyKey } from './order-label-form';
import { selectUncertainAttempt } from './order-label-selectors';
import {
  addressesLoaded,
  labelOrderFailed,
  labelOrderSubmitted,
  labelOrderSucceeded,
  orderLabelOpened,
  type PriceRequest,
  priceLoaded,
  priceRequested,
  servicesLoaded,
  type UncertainAttempt,
} from './order-label-slice';

/** Typing "12.5" asks for one price, not four. */
export const PRICE_DEBOUNCE_MS = 250;

function* loadServices(userId: string): SagaIterator {
  try {
    const services: AvailableService[] = yield call(orderLabelApi.availableServices, userId);
    yield put(servicesLoaded(services));
  } catch (error) {
    console.error('Order label: loading services failed', error);
    yield put(servicesLoaded([]));
    yield put(toastShown({ kind: 'error', message: 'Error loading services' }));
  }
}

function* loadAddresses(userId: string): SagaIterator {
  try {
    const reply: Partial<SavedAddressReply> = yield call(addressApi.list, userId);
    const list: Address[] = Array.isArray(reply?.savedAddress) ? reply.savedAddress : [];
    yield put(addressesLoaded(list));
  } catch (error) {
    // Spec doc 1 §8: a failed address fetch is an empty list; the picker says so.
    console.error('Order label: loading saved addresses failed', error);
    yield put(addressesLoaded([]));
  }
}

export function* loadOrderLabelData(action: PayloadAction<string>): SagaIterator {
  yield all([call(loadServices, action.payload), call(loadAddresses, action.payload)]);
}

export function* quotePrice(action: PayloadAction<PriceRequest>): SagaIterator {
  // takeLatest cancels this wait when the user keeps typing, so only the last value is asked for.
  yield delay(PRICE_DEBOUNCE_MS);
  try {
    const user: SessionUser | null = yield select(selectUser);
    const reply: Partial<QuoteReply> = yield call(orderLabelApi.quote, {
      userId: user?._id ?? '',
      shipments: [{ service_name: action.payload.serviceName, package: { package_weight: action.payload.weight } }],
    });
    const total = Number(reply?.totalPrice);
    yield put(priceLoaded(Number.isFinite(total) ? total : 0));
  } catch (error) {
    console.error('Order label: price quote failed', error);
    yield put(priceLoaded(0));
  }
}

/**
 * A lost answer (no response, or the gateway could not reach orders), or an
 * earlier attempt still being processed: the label may have been bought, so
 * the next try must carry the same key.
 */
function isOutcomeUnknown(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.isNetworkError || [502, 503, 504].includes(error.status) || error.code === 'ORDERS_IN_PROGRESS')
  );
}

export function* submitLabelOrder(action: PayloadAction<OrderCreateBody>): SagaIterator {
  const fingerprint = JSON.stringify(action.payload);
  const uncertain: UncertainAttempt | null = yield select(selectUncertainAttempt);
  const key = uncertain && uncertain.fingerprint === fingerprint ? uncertain.key : newIdempotencyKey();
  try {
    const reply: Partial<OrderCreateReply> = yield call(orderLabelApi.createOrder, action.payload, key);
    yield put(labelOrderSucceeded({ pdfName: reply?.data?.pdfName ?? null }));
    // The label was paid from the balance: reload the user so the avatar menu shows the new balance.
    yield put(sessionVerifyRequested());
  } catch (error) {
    yield put(labelOrderFailed({ uncertainAttempt: isOutcomeUnknown(error) ? { key, fingerprint } : null }));
    yield put(toastShown({ kind: 'error', message: labelOrderErrorMessage(error) }));
  }
}

export function* orderLabelSaga(): SagaIterator {
  yield all([
    // Queries: a newer request replaces an older one, so a stale answer never wins.
    takeLatest(orderLabelOpened.type, loadOrderLabelData),
    takeLatest(priceRequested.type, quotePrice),
    // Submit: a second click while one purchase is in flight is ignored.
    takeLeading(labelOrderSubmitted.type, submitLabelOrder),
  ]);
}
