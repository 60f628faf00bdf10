import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { Server } from 'socket.io';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionVerified } from '../features/auth/auth-slice';
import { bulkOrderInitialized } from '../features/bulk-progress/bulk-progress-actions';
import { useFakeClock } from '../test/fake-clock';
import { makeUser } from '../test/fixtures';
import { api } from '../test/handlers';
import { noLiveChatHandler } from '../test/msw';
// A followed order lives in the user area's state, which arrives with its pages.
import '../features/shell/user-area';
import { RECONNECT_AFTER_END_MS } from './socket-saga';
import { createAppStore } from './store';

let verifyCalls = 0;
const msw = setupServer(
  http.get(api('auth/verify'), () => {
    verifyCalls += 1;
    return HttpResponse.json({ user: makeUser({ balance: 99 }) });
  }),
  noLiveChatHandler,
);
// msw sees every request; the socket's own traffic goes through to the real socket.io server.
beforeAll(() =>
  msw.listen({
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== '127.0.0.1') print.error();
    },
  }),
);
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

interface Joined {
  room: string;
  token: unknown;
}

let io: Server;
let url: string;
let joins: Joined[];

beforeEach(async () => {
  verifyCalls = 0;
  joins = [];
  const httpServer = createServer();
  io = new Server(httpServer, { cors: { origin: true } });
  io.on('connection', (socket) => {
    socket.on('joinOrderRoom', (room: string) => {
      joins.push({ room, token: socket.handshake.auth?.token });
      void socket.join(room);
      // The gateway answers a join with the current state at once.
      socket.emit('orderProgress', {
        orderId: room.slice('order_'.length),
        processedCount: 1,
        failedCount: 0,
        totalCount: 3,
        status: 'processing',
        fileData: null,
      });
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => io.close(() => resolve()));
});

function signedInStore() {
  localStorage.setItem('token', 'good-token');
  const store = createAppStore({ socket: { socketUrl: url, socketTransports: ['websocket'] } });
  store.dispatch(sessionVerified(makeUser()));
  return store;
}

const ORDER = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** vi.waitFor with room for a busy machine (its own default is one second). */
const eventually = <T>(check: () => T, timeout = 10_000) => vi.waitFor(check, { timeout });

describe('real-time progress', () => {
  it('joins the order room with the token and applies the state the server sends', async () => {
    const store = signedInStore();
    store.dispatch(bulkOrderInitialized({ orderId: ORDER, totalCount: 3 }));
    await eventually(() => expect(joins).toEqual([{ room: `order_${ORDER}`, token: 'good-token' }]));
    await eventually(() => expect(store.getState().bulkProgress.processedCount).toBe(1));

    io.to(`order_${ORDER}`).emit('orderProgress', {
      orderId: ORDER,
      processedCount: 1,
      failedCount: 1,
      refundedCount: 1,
      totalCount: 3,
      status: 'completed_with_errors',
      fileData: { pdfName: 'l.pdf', resultCSVName: 'r.csv', autoConfirmCSVName: null },
    });
    await eventually(() =>
      expect(store.getState().bulkProgress).toMatchObject({
        orderStatus: 'completed_with_errors',
        processedCount: 1,
        failedCount: 1,
        refundedCount: 1,
        fileData: { pdfName: 'l.pdf' },
      }),
    );
    // Refunds changed the balance: the profile is read again, once.
    await eventually(() => expect(store.getState().auth.user?.balance).toBe(99));
    expect(verifyCalls).toBe(1);
  });

  it('joins the room again after the connection drops', async () => {
    const store = signedInStore();
    store.dispatch(bulkOrderInitialized({ orderId: ORDER, totalCount: 3 }));
    await eventually(() => expect(joins).toHaveLength(1));
    // A dropped transport (not a server-side kick, which socket.io treats as final) reconnects.
    for (const socket of io.of('/').sockets.values()) socket.conn.close();
    await eventually(() => expect(joins).toHaveLength(2), 20_000);
    expect(joins[1]?.room).toBe(`order_${ORDER}`);
    // The server forgot the room with the old connection: only the re-join delivers this.
    io.to(`order_${ORDER}`).emit('orderProgress', { orderId: ORDER, processedCount: 2, status: 'processing' });
    await eventually(() => expect(store.getState().bulkProgress.processedCount).toBe(2));
  });

  it('ignores events for another order and leaves when the window is closed or the user logs out', async () => {
    const store = signedInStore();
    store.dispatch(bulkOrderInitialized({ orderId: ORDER, totalCount: 3 }));
    await eventually(() => expect(store.getState().bulkProgress.processedCount).toBe(1));
    io.emit('orderProgress', { orderId: 'someone-else', processedCount: 2, status: 'failed' });
    // A later event of the followed order comes the same way: once it is applied, the other one has had its turn.
    io.emit('orderProgress', { orderId: ORDER, failedCount: 1 });
    await eventually(() => expect(store.getState().bulkProgress.failedCount).toBe(1));
    expect(store.getState().bulkProgress.orderStatus).toBe('processing');
    expect(store.getState().bulkProgress.processedCount).toBe(1);
    store.dispatch({ type: 'auth/logoutRequested' });
    await eventually(() => expect(io.of('/').sockets.size).toBe(0));
  });

  it('a session the server ends (the user blocked) signs out at once, with no order followed', async () => {
    msw.use(
      http.get(api('auth/verify'), () =>
        HttpResponse.json(
          { code: 'AUTH_ACCOUNT_BLOCKED', message: 'Your account has been blocked. Please contact support.' },
          { status: 403 },
        ),
      ),
    );
    const store = signedInStore();
    await eventually(() => expect(io.of('/').sockets.size).toBe(1));
    expect(joins).toEqual([]);
    for (const socket of io.of('/').sockets.values()) socket.disconnect(true);
    await eventually(() => expect(store.getState().auth.token).toBeNull());
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('a connection the server closes while the session is still valid comes back a little later', async () => {
    const store = signedInStore();
    store.dispatch(bulkOrderInitialized({ orderId: ORDER, totalCount: 3 }));
    await eventually(() => expect(joins).toHaveLength(1));
    // The wait before connecting again is counted on a fake clock.
    useFakeClock();
    for (const socket of io.of('/').sockets.values()) socket.disconnect(true);
    await eventually(() => expect(verifyCalls).toBeGreaterThan(0));
    await eventually(() => expect(store.getState().auth.user?.balance).toBe(99));
    expect(store.getState().auth.token).toBe('good-token');
    expect(io.of('/').sockets.size).toBe(0);
    vi.advanceTimersByTime(RECONNECT_AFTER_END_MS);
    await eventually(() => expect(joins).toHaveLength(2));
  });
});
