import { type OrderProgress, orderRoomName, REALTIME_EVENTS } from '@flatship/proto';
import { type END, type EventChannel, eventChannel, type SagaIterator } from 'redux-saga';
import { call, cancelled, delay, getContext, put, race, select, take } from 'redux-saga/effects';
import type { io as connect, Socket } from 'socket.io-client';
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

/** After the server closed the connection and the session was found still valid, connect again this much later. */
export const RECONNECT_AFTER_END_MS = 5000;

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

/**
 * `progress`: an orderProgress message. `ended`: the server closed the connection or refused it (the gateway does
 * so when the session is revoked: the user blocked, deleted or signed out everywhere).
 */
type SocketEvent = { kind: 'progress'; message: ProgressMessage } | { kind: 'ended' };

// The progress state arrives with the user area's code (registerFeature): until then no order is followed.
const followed = (state: RootState) => ({
  token: state.auth.token,
  orderId: (state as Partial<RootState>).bulkProgress?.orderId ?? null,
});

/**
 * Opens one socket for (token, order). The socket stays open for the whole
 * session, following an order or not, so the gateway can end a revoked session
 * at once. socket.io fires `connect` again after every reconnection, and the
 * server forgets rooms when a socket drops, so the room is joined on each
 * `connect`; the gateway answers a join with the order's current state, which
 * fills in whatever was missed while offline.
 */
export function createOrderChannel(
  io: typeof connect,
  url: string,
  token: string,
  orderId: string | null,
  transports?: SocketContext['socketTransports'],
) {
  return eventChannel<SocketEvent>((emit) => {
    const socket: Socket = io(url, {
      auth: { token },
      ...SOCKET_OPTIONS,
      ...(transports ? { transports } : {}),
    });
    socket.on('connect', () => {
      if (orderId) socket.emit(REALTIME_EVENTS.joinOrderRoom, orderRoomName(orderId));
    });
    socket.on('disconnect', (reason) => {
      // Only the server's own goodbye: network drops reconnect by themselves.
      if (reason === 'io server disconnect') emit({ kind: 'ended' });
    });
    socket.on(REALTIME_EVENTS.orderProgress, (message: ProgressMessage) => {
      if (message && typeof message === 'object') emit({ kind: 'progress', message });
    });
    socket.on('connect_error', (error: Error) => {
      // socket.io keeps retrying on its own after a network failure; a refusal by the server it does not retry.
      console.warn('Real-time connection failed', error.message);
      if (!socket.active) emit({ kind: 'ended' });
    });
    return () => {
      socket.off();
      socket.disconnect();
    };
  });
}

/**
 * The socket.io client is downloaded only once someone is signed in: a visitor of the
 * public pages never opens a real-time connection, so never needs it.
 */
export async function loadSocketClient(): Promise<typeof connect> {
  return (await import('socket.io-client')).io;
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

function* followOrder(token: string, orderId: string | null): SagaIterator {
  const url: string | null | undefined = yield getContext('socketUrl');
  const transports: SocketContext['socketTransports'] = yield getContext('socketTransports');
  if (url === null) return;
  let io: typeof connect;
  try {
    io = yield call(loadSocketClient);
  } catch (error) {
    // Offline, or a deploy replaced the chunk: treated as a refused connection (verify, then retry later).
    console.warn('Real-time connection failed: the client could not be loaded', error);
    yield put(sessionVerifyRequested());
    return;
  }
  const events: EventChannel<SocketEvent> = yield call(
    createOrderChannel,
    io,
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
      if (event.kind === 'ended') {
        // Asking who we are settles it: a revoked session signs out (and the guard shows the login page), a live
        // one (a server restart) finds the connection again on the next change.
        yield put(sessionVerifyRequested());
        return;
      }
      const { message } = event;
      // Events of an earlier order can still be in flight right after switching.
      if (typeof message.orderId === 'string' && message.orderId !== orderId) continue;
      const status = typeof message.status === 'string' ? message.status : undefined;
      const fileData = fileDataOf(message.fileData);
      yield put(
        progressUpdated({
          processedCount: message.processedCount,
          failedCount: message.failedCount,
          refundedCount: message.refundedCount,
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

/** Connected while signed in, in the order's room while following one; a new order, a new token or logout reconnects or closes. */
export function* socketSaga(): SagaIterator {
  while (true) {
    const { token, orderId }: ReturnType<typeof followed> = yield select(followed);
    if (token) {
      yield race({ follow: call(followOrder, token, orderId), change: call(waitForChange, token, orderId) });
      // Closed by the server without a change here: a revoked session signs out meanwhile (a change); a live one (the
      // gateway restarting) connects again a little later.
      const now: ReturnType<typeof followed> = yield select(followed);
      if (now.token === token && now.orderId === orderId) {
        yield race({ change: call(waitForChange, token, orderId), retry: delay(RECONNECT_AFTER_END_MS) });
      }
    } else {
      yield call(waitForChange, token, orderId);
    }
  }
}
