import type { PayloadAction } from '@reduxjs/toolkit';
import { type EventChannel, eventChannel, type SagaIterator } from 'redux-saga';
import { all, call, put, race, select, spawn, take, takeLatest, takeLeading } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import { toastShown } from '../../components/toast-slice';
import { selectToken } from '../auth/auth-selectors';
import { sessionVerifyRequested } from '../auth/auth-slice';
import { btcpayPort, type ModalEvent, modalScriptUrl } from './btcpay-port';
import { type DepositsReply, depositsApi, GUEST_USER_ID, isTopUpReply } from './deposits-api';
import { selectDepositsPage, selectDepositsUserId } from './deposits-selectors';
import {
  type DepositsRequest,
  depositsFailed,
  depositsLoaded,
  depositsRequested,
  paymentWindowEvent,
  paymentWindowOpened,
  topUpFinished,
  topUpRequested,
} from './deposits-slice';

/** Spec doc 2 §8 and the deposit screen's own texts. */
export const DEPOSIT_MESSAGES = {
  loadFailed: 'Failed to load deposits',
  topUpFailed: 'Failed to create invoice',
  invalidInvoice: 'Invalid invoice response format',
  windowFailed: 'Could not open the payment window. Please try again.',
} as const;

export function* loadDeposits(action: PayloadAction<DepositsRequest>): SagaIterator {
  const { userId, page } = action.payload;
  try {
    const reply: DepositsReply = yield call(depositsApi.list, userId, page);
    yield put(depositsLoaded(reply));
  } catch (error) {
    console.error('Deposits: loading failed', error);
    yield put(depositsFailed());
    yield put(toastShown({ kind: 'error', message: errorMessage(error, DEPOSIT_MESSAGES.loadFailed) }));
  }
}

/** The open payment window's events as a channel; closing the channel stops listening. */
export function paymentWindowChannel(invoiceId: string): EventChannel<ModalEvent> {
  return eventChannel<ModalEvent>((emit) => btcpayPort.openInvoice(invoiceId, emit));
}

/** A payment may have been made: read the list page on screen and the user's balance again. */
function* refreshAfterPayment(): SagaIterator {
  const userId: string | null = yield select(selectDepositsUserId);
  const page: number = yield select(selectDepositsPage);
  if (userId) yield put(depositsRequested({ userId, page }));
  const token: string | null = yield select(selectToken);
  if (token) yield put(sessionVerifyRequested());
}

function* followPaymentWindow(channel: EventChannel<ModalEvent>): SagaIterator {
  try {
    while (true) {
      // The provider keeps one set of callbacks: a newer window silences this one.
      const { event } = yield race({ event: take(channel), replaced: take(paymentWindowOpened.type) });
      if (!event) return;
      yield put(paymentWindowEvent(event));
      yield call(refreshAfterPayment);
      if (event === 'left') return;
    }
  } finally {
    channel.close();
  }
}

export function* topUp(action: PayloadAction<string | null>): SagaIterator {
  let reply: unknown;
  try {
    reply = yield call(depositsApi.topUp, action.payload ?? GUEST_USER_ID);
  } catch (error) {
    console.error('Deposits: creating the invoice failed', error);
    yield put(toastShown({ kind: 'error', message: errorMessage(error, DEPOSIT_MESSAGES.topUpFailed) }));
    yield put(topUpFinished());
    return;
  }
  if (!isTopUpReply(reply)) {
    // Spec doc 2 §8: logged only; the button resets.
    console.error(DEPOSIT_MESSAGES.invalidInvoice, reply);
    yield put(topUpFinished());
    return;
  }
  let channel: EventChannel<ModalEvent>;
  try {
    yield call(btcpayPort.loadScript, modalScriptUrl(reply.checkoutLink));
    channel = yield call(paymentWindowChannel, reply.id);
  } catch (error) {
    console.error('Deposits: the payment window could not be opened', error);
    yield put(toastShown({ kind: 'error', message: DEPOSIT_MESSAGES.windowFailed }));
    yield put(topUpFinished());
    return;
  }
  yield put(paymentWindowOpened(reply.id));
  // Detached: the window may stay open for as long as the payer likes without holding the button.
  yield spawn(followPaymentWindow, channel);
}

export function* depositsSaga(): SagaIterator {
  yield all([
    // Query: a newer page (or a refresh) replaces an older request.
    takeLatest(depositsRequested.type, loadDeposits),
    // Submit: a second click while an invoice is being made must not make another.
    takeLeading(topUpRequested.type, topUp),
  ]);
}
