import { type OrderProgress, orderRoomName, REALTIME_EVENTS } from '@flatship/proto';
import { type END, type EventChannel, eventChannel, type SagaIterator } from 'redux-saga';
import { call, cancelled, getContext, put, race, select, take } from 'redux-saga/effects';
import { io, type Socket } from 'socket.io-client';
import { sessionVerifyRequested } from '../features/auth/auth-slice';
import { progressUpdated, timerTicked } from '../features/bulk-progress/bulk-progress-slice';
import type { RootState } from './store';

/** Spec doc 2 §9: real-time client defaults. */
export const SOCKET_OPTIONS = {
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20000,
} as const;

/**
 * Saga context keys tests may set: another server address (null: no real-time
 * connection at all, for screen tests with no server), or websocket-only transport.
 */
export interface SocketContext {
  socketUrl?: string | null;
  socketTransports?: ('polling' | 'websocket')[];
}

/** What `orderProgress` carries; read defensively, as any part may be missing or of another shape. */
type ProgressMessage = Partial<OrderProgress>;

type SocketEvent = { kind: 'progress'; message: ProgressMessage };

const followed = (state: RootState) => ({ token: state.auth.token, orderId: state.bulkProgress.orderId });

/**
 * Opens one socket for (token, order). socket.io fires `connect` again after
 * every reconnection, and the server forgets rooms when a socket drops, so the
 * room is joined on each `connect`; the gateway answers a join with the order's
 * current state, which fills in whatever was missed while offline.
 */
export function createOrderChannel(
  url: string,
  token: string,
  orderId: string,
  transports?: SocketContext['socketTransports'],
) {
  return eventChannel<SocketEvent>((emit) => {
    const socket: Socket = io(url, {
      auth: { token },
      ...SOCKET_OPTIONS,
      ...(transports ? { transports } : {}),
    });
    socket.on('connect', () => {
      socket.emit(REALTIME_EVENTS.joinOrderRoom, orderRoomName(orderId));
    });
    socket.on(REALTIME_EVENTS.orderProgress, (message: ProgressMessage) => {
      if (message && typeof message === 'object') emit({ kind: 'progress', message });
    });
    socket.on('connect_error', (error: Error) => {
      // socket.io keeps retrying on its own; a refused token ends with a user refresh elsewhere.
      console.warn('Real-time connection failed', error.message);
    });
    return () => {
      socket.off();
      socket.disconnect();
    };
  });
}

function fileDataOf(value: unknown) {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const name = (key: string) => (typeof v[key] === 'string' && v[key] ? (v[key] as string) : null);
  return {
    pdfName: name('pdfName'),
    resultCSVName: name('resultCSVName'),
    autoConfirmCSVName: name('autoConfirmCSVName'),
  };
}

function* followOrder(token: string, orderId: string): SagaIterator {
  const url: string | null | undefined = yield getContext('socketUrl');
  const transports: SocketContext['socketTransports'] = yield getContext('socketTransports');
  if (url === null) return;
  const events: EventChannel<SocketEvent> = yield call(
    createOrderChannel,
    url ?? window.location.origin,
    token,
    orderId,
    transports,
  );
  let isProfileRefreshed = false;
  try {
    while (true) {
      const event: SocketEvent | END = yield take(events);
      if ('type' in event) return;
      const { message } = event;
      // Events of an earlier order can still be in flight right after switching.
      if (typeof message.orderId === 'string' && message.orderId !== orderId) continue;
      const status = typeof message.status === 'string' ? message.status : undefined;
      const fileData = fileDataOf(message.fileData);
      yield put(
        progressUpdated({
          processedCount: message.processedCount,
          failedCount: message.failedCount,
          totalCount: message.totalCount,
          status,
          fileData,
        }),
      );
      const isDone = status === 'completed' || status === 'completed_with_errors';
      if (isDone && fileData && !isProfileRefreshed) {
        // The last tick pins the elapsed time; the terminal status then stops the timer.
        isProfileRefreshed = true;
        yield put(timerTicked(Date.now()));
        // Failed labels were refunded: the balance in the profile has changed.
        yield put(sessionVerifyRequested());
      }
    }
  } finally {
    if (yield cancelled()) events.close();
  }
}

function* waitForChange(token: string | null, orderId: string | null): SagaIterator {
  while (true) {
    yield take('*');
    const now: ReturnType<typeof followed> = yield select(followed);
    if (now.token !== token || now.orderId !== orderId) return;
  }
}

/** Connected while signed in and following an order; a new order, a new token or logout reconnects or closes. */
export function* socketSaga(): SagaIterator {
  while (true) {
    const { token, orderId }: ReturnType<typeof followed> = yield select(followed);
    if (token && orderId) {
      yield race({ follow: call(followOrder, token, orderId), change: call(waitForChange, token, orderId) });
      // Closed by the server for good (END) without a change: wait for one before reconnecting.
      const now: ReturnType<typeof followed> = yield select(followed);
      if (now.token === token && now.orderId === orderId) yield call(waitForChange, token, orderId);
    } else {
      yield call(waitForChange, token, orderId);
    }
  }
}
