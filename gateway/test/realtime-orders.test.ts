import { randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  type BusLogger,
  createDb,
  createInternalClient,
  createPostgresBus,
  type EventBus,
  migrateBus,
  type ServiceApp,
} from '@flatship/kit';
import { createTestDatabase } from '@flatship/kit/testing';
import { type BulkProgressEvent, type OrderProgress, type OrderRoomAck, TOPICS } from '@flatship/proto';
import Fastify, { type FastifyInstance } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createBusProgressFeed } from '../src/bulk-progress';
import { GATEWAY_MESSAGES } from '../src/messages';
import { createOrderLookup } from '../src/order-lookup';
import { MAX_ORDER_ROOMS_PER_SOCKET } from '../src/realtime';
import { createUserDirectory, gatewayDeps, type StandInService, startGateway, startStandInService } from './helpers';

const SECRET = 'internal-secret-for-tests';
// How long a socket.io acknowledgement may take on a busy machine.
const ACK_MS = 15_000;

let database: { url: string; drop(): Promise<void> };
let db: ReturnType<typeof createDb>;
let bus: EventBus & { close(): Promise<void> };
let auth: StandInService;
let orders: { url: string; app: FastifyInstance; states: Map<string, BulkProgressEvent>; calls: string[] };
let gateway: { app: ServiceApp; url: string };
const warnings: string[] = [];
const logger: BusLogger = {
  error: () => {},
  warn: (_obj, msg) => void warnings.push(msg ?? ''),
  info: () => {},
  debug: () => {},
};
// No cache: what a test writes here is what the next join sees.
const users = createUserDirectory(0);
const open: Socket[] = [];
const extraGateways: ServiceApp[] = [];

/** A real HTTP server standing in for the orders service's internal bulk-order route. */
async function startStandInOrders() {
  const app = Fastify();
  const states = new Map<string, BulkProgressEvent>();
  const calls: string[] = [];
  app.get<{ Params: { id: string } }>('/internal/bulk-orders/:id', async (req, reply) => {
    calls.push(req.params.id);
    if (req.headers['x-internal-secret'] !== SECRET) {
      return reply.code(403).send({ code: 'FORBIDDEN', message: 'Internal route' });
    }
    const state = states.get(req.params.id);
    if (!state) return reply.code(404).send({ code: 'NOT_FOUND', message: 'Bulk order not found' });
    return state;
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, app, states, calls };
}

function gatewayWith(opts: { ordersUrl?: string; secret?: string; progress?: boolean } = {}) {
  const ordersUrl = opts.ordersUrl ?? orders.url;
  return {
    ...gatewayDeps({ upstreams: { auth: auth.url, orders: ordersUrl }, tokenState: users.tokenState }),
    orders: createOrderLookup(createInternalClient({ baseUrl: ordersUrl, secret: opts.secret ?? SECRET }), logger),
    ...(opts.progress === false ? {} : { progress: createBusProgressFeed(bus, logger) }),
  };
}

beforeAll(async () => {
  database = await createTestDatabase('gateway_rt');
  db = createDb(database.url, 'bus', { max: 8 });
  await migrateBus(db, 'bus');
  bus = createPostgresBus({ db, schema: 'bus', logger, pollIntervalMs: 100, joinTimeoutMs: 500 });
  auth = await startStandInService('auth');
  orders = await startStandInOrders();
  gateway = await startGateway(gatewayWith());
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => {
  await Promise.all(extraGateways.map((g) => g.close()));
  await gateway.app.close();
  await orders.app.close();
  await auth.close();
  await bus.close();
  await db.destroy();
  await database.drop();
});

function order(userId: string, patch: Partial<BulkProgressEvent> = {}): BulkProgressEvent {
  const state: BulkProgressEvent = {
    orderId: randomUUID(),
    userId,
    processedCount: 0,
    failedCount: 0,
    refundedCount: 0,
    totalCount: 10,
    status: 'processing',
    fileData: null,
    ...patch,
  };
  orders.states.set(state.orderId, state);
  return state;
}

const wire = ({ userId: _owner, ...progress }: BulkProgressEvent): OrderProgress => progress;

async function client(token: string, url = gateway.url, extra: Parameters<typeof connect>[1] = {}) {
  const socket = connect(url, { transports: ['websocket'], reconnection: false, auth: { token }, ...extra });
  open.push(socket);
  const received: OrderProgress[] = [];
  socket.on('orderProgress', (p: OrderProgress) => void received.push(p));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, received };
}

const join = (socket: Socket, room: unknown): Promise<OrderRoomAck> =>
  socket.timeout(ACK_MS).emitWithAck('joinOrderRoom', room);

async function publish(...events: unknown[]) {
  await bus.publish(
    TOPICS.bulkProgress,
    events.map((value) => ({ key: (value as { orderId?: string }).orderId ?? 'x', value })),
  );
}

async function until(what: string, condition: () => boolean, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * What a socket has not been sent is shown by what it has: an event of an order of `userId`'s own, which the socket
 * follows, is published once the earlier event has reached another follower. The gateway sends an event to every
 * socket of its room at once, and one connection delivers in order, so once the marker is there, anything earlier
 * that was going to reach this socket is there too. Returns what the socket got before the marker.
 */
async function receivedBeforeMarker(c: { socket: Socket; received: OrderProgress[] }, userId: string) {
  const marker = order(userId);
  expect(await join(c.socket, `order_${marker.orderId}`)).toEqual({ ok: true });
  await publish({ ...marker, processedCount: 1 });
  await until('the marker event', () => c.received.some((p) => p.orderId === marker.orderId && p.processedCount === 1));
  return c.received.filter((p) => p.orderId !== marker.orderId);
}

const NOT_FOUND = { ok: false, code: 'NOT_FOUND', message: 'Order not found' };

describe('joinOrderRoom', () => {
  test('the owner joins, gets the current state at once and then every published progress event', async () => {
    const token = users.add({ id: 'rt-owner' });
    const state = order('rt-owner', { processedCount: 3, failedCount: 1 });
    const { socket, received } = await client(token);

    expect(await join(socket, `order_${state.orderId}`)).toEqual({ ok: true });
    // Sent before the acknowledgement, on the same connection.
    expect(received).toEqual([wire(state)]);

    const done: BulkProgressEvent = {
      ...state,
      processedCount: 8,
      refundedCount: 1,
      status: 'completed_with_errors',
      fileData: { pdfName: 'a.pdf', resultCSVName: 'a.csv', autoConfirmCSVName: null },
    };
    await publish({ ...state, processedCount: 5 }, done);
    await until('two progress events', () => received.length === 3);
    expect(received.slice(1)).toEqual([wire({ ...state, processedCount: 5 }), wire(done)]);
    expect(received[2]).not.toHaveProperty('userId');
  });

  test("another user's socket is refused like an unknown order and never receives that order's events", async () => {
    const ownerToken = users.add({ id: 'rt-victim' });
    const intruderToken = users.add({ id: 'rt-intruder' });
    const state = order('rt-victim');
    const owner = await client(ownerToken);
    const intruder = await client(intruderToken);
    expect(await join(owner.socket, `order_${state.orderId}`)).toEqual({ ok: true });

    expect(await join(intruder.socket, `order_${state.orderId}`)).toEqual(NOT_FOUND);
    expect(await join(intruder.socket, `order_${randomUUID()}`)).toEqual(NOT_FOUND);

    await publish({ ...state, processedCount: 4 });
    await until('the owner to get the event', () => owner.received.length === 2);
    expect(await receivedBeforeMarker(intruder, 'rt-intruder')).toEqual([]);
    expect(intruder.socket.connected).toBe(true);
  });

  test("an admin may follow any user's order", async () => {
    const adminToken = users.add({ id: 'rt-admin', role: 'admin' });
    users.add({ id: 'rt-customer' });
    const state = order('rt-customer', { totalCount: 4 });
    const admin = await client(adminToken);

    expect(await join(admin.socket, `order_${state.orderId}`)).toEqual({ ok: true });
    await publish({ ...state, processedCount: 4, status: 'generating_files' });
    await until('the event', () => admin.received.length === 2);
    expect(admin.received[1]).toMatchObject({ orderId: state.orderId, status: 'generating_files' });
  });

  test('room names other than order_<uuid> are refused without asking orders', async () => {
    const token = users.add({ id: 'rt-bad' });
    const { socket, received } = await client(token);
    const calls = orders.calls.length;
    const bad = [
      'order_123',
      `order_${randomUUID().toUpperCase()}`,
      `order_${randomUUID()}x`,
      ` order_${randomUUID()}`,
      `order_../${randomUUID().slice(3)}`,
      'user:rt-victim',
      randomUUID(),
      42,
      { room: 'order_x' },
      null,
    ];
    for (const room of bad) {
      expect(await join(socket, room)).toEqual({
        ok: false,
        code: 'BAD_REQUEST',
        message: GATEWAY_MESSAGES.badOrderRoom,
      });
    }
    expect(orders.calls.length).toBe(calls);
    expect(received).toEqual([]);
  });

  test("events of one order don't reach sockets following another", async () => {
    const token = users.add({ id: 'rt-two' });
    const first = order('rt-two');
    const second = order('rt-two');
    const a = await client(token);
    const b = await client(token);
    expect(await join(a.socket, `order_${first.orderId}`)).toEqual({ ok: true });
    expect(await join(b.socket, `order_${second.orderId}`)).toEqual({ ok: true });

    await publish({ ...second, processedCount: 2 });
    await until('the event for the second order', () => b.received.length === 2);
    expect(await receivedBeforeMarker(a, 'rt-two')).toEqual([wire(first)]);
  });

  test('a client that reconnects and joins again gets the state it missed at once', async () => {
    const token = users.add({ id: 'rt-reconnect' });
    const state = order('rt-reconnect', { totalCount: 5 });
    const acks: OrderRoomAck[] = [];
    const { socket, received } = await client(token, gateway.url, {
      reconnection: true,
      reconnectionDelay: 50,
      reconnectionDelayMax: 100,
    });
    // What the web app does: join on every (re)connect.
    const rejoin = () => void join(socket, `order_${state.orderId}`).then((ack) => acks.push(ack));
    rejoin();
    socket.on('connect', rejoin);
    await until('the first join', () => acks.length === 1);

    const dropped = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    socket.io.engine.close();
    await dropped;
    // Progress made while the client was away: the event is published to nobody.
    const done: BulkProgressEvent = {
      ...state,
      processedCount: 5,
      status: 'completed',
      fileData: { pdfName: 'b.pdf', resultCSVName: 'b.csv', autoConfirmCSVName: 'b.tsv' },
    };
    orders.states.set(state.orderId, done);

    await until('the join after reconnecting', () => acks.length === 2);
    expect(acks).toEqual([{ ok: true }, { ok: true }]);
    expect(received).toEqual([wire(state), wire(done)]);
  });

  test('a user blocked since connecting cannot join, and the socket is closed', async () => {
    const token = users.add({ id: 'rt-blocked' });
    const state = order('rt-blocked');
    const { socket, received } = await client(token);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    // No user.changed event: the join itself must notice.
    users.states.set('rt-blocked', { id: 'rt-blocked', role: 'user', activation: 'block', tokenVersion: 1 });

    expect(await join(socket, `order_${state.orderId}`)).toEqual({
      ok: false,
      code: 'AUTH_ACCOUNT_BLOCKED',
      message: AUTH_MESSAGES.blocked,
    });
    expect(await closed).toBe('io server disconnect');
    expect(received).toEqual([]);
  });

  test('leaving a room stops its events', async () => {
    const token = users.add({ id: 'rt-leave' });
    const state = order('rt-leave');
    const { socket, received } = await client(token);
    expect(await join(socket, `order_${state.orderId}`)).toEqual({ ok: true });
    expect(await socket.timeout(ACK_MS).emitWithAck('leaveOrderRoom', `order_${state.orderId}`)).toEqual({ ok: true });

    // A second follower proves the event was relayed.
    const other = await client(token);
    expect(await join(other.socket, `order_${state.orderId}`)).toEqual({ ok: true });
    await publish({ ...state, processedCount: 1 });
    await until('the other follower to get the event', () => other.received.length === 2);
    expect(await receivedBeforeMarker({ socket, received }, 'rt-leave')).toEqual([wire(state)]);
  });

  test(`one connection follows at most ${MAX_ORDER_ROOMS_PER_SOCKET} orders; joining one again does not count`, async () => {
    const token = users.add({ id: 'rt-many' });
    const { socket } = await client(token);
    const states = Array.from({ length: MAX_ORDER_ROOMS_PER_SOCKET + 1 }, () => order('rt-many'));
    const acks = await Promise.all(states.map((s) => join(socket, `order_${s.orderId}`)));
    expect(acks.filter((a) => a.ok)).toHaveLength(MAX_ORDER_ROOMS_PER_SOCKET);
    expect(acks.filter((a) => !a.ok)).toEqual([
      { ok: false, code: 'BAD_REQUEST', message: GATEWAY_MESSAGES.tooManyOrderRooms },
    ]);
    const joined = states.filter((_, i) => acks[i]?.ok);
    expect(await join(socket, `order_${joined[0]?.orderId}`)).toEqual({ ok: true });

    const refused = states.find((_, i) => !acks[i]?.ok);
    await socket.timeout(ACK_MS).emitWithAck('leaveOrderRoom', `order_${joined[1]?.orderId}`);
    expect(await join(socket, `order_${refused?.orderId}`)).toEqual({ ok: true });
  });
});

describe('when orders cannot answer', () => {
  test('without ORDERS_URL joining answers that order updates are unavailable', async () => {
    const app = await startGateway({
      ...gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState }),
    });
    extraGateways.push(app.app);
    const state = order('rt-no-orders');
    const { socket } = await client(users.add({ id: 'rt-no-orders' }), app.url);
    expect(await join(socket, `order_${state.orderId}`)).toEqual({
      ok: false,
      code: 'SERVICE_UNAVAILABLE',
      message: 'Order updates are unavailable right now',
    });
  });

  test('orders refusing the internal secret answers the same, not "not found"', async () => {
    const app = await startGateway(gatewayWith({ secret: 'wrong', progress: false }));
    extraGateways.push(app.app);
    const state = order('rt-wrong-secret');
    const { socket, received } = await client(users.add({ id: 'rt-wrong-secret' }), app.url);
    expect(await join(socket, `order_${state.orderId}`)).toEqual({
      ok: false,
      code: 'SERVICE_UNAVAILABLE',
      message: GATEWAY_MESSAGES.orderUpdatesUnavailable,
    });
    expect(received).toEqual([]);
    expect(warnings).toContain('could not read bulk order from orders');
  });

  test('orders answering a body of the wrong shape is not taken as a yes', async () => {
    const liar = Fastify();
    liar.get('/internal/bulk-orders/:id', async () => ({ orderId: 'x', status: 'completed' }));
    const liarUrl = await liar.listen({ host: '127.0.0.1', port: 0 });
    try {
      const app = await startGateway(gatewayWith({ ordersUrl: liarUrl, progress: false }));
      extraGateways.push(app.app);
      const { socket } = await client(users.add({ id: 'rt-liar' }), app.url);
      expect(await join(socket, `order_${randomUUID()}`)).toMatchObject({ ok: false, code: 'SERVICE_UNAVAILABLE' });
    } finally {
      await liar.close();
    }
  });
});

describe('bulk.progress relay', () => {
  test('a malformed event is logged and skipped; the ones after it are relayed', async () => {
    const token = users.add({ id: 'rt-malformed' });
    const state = order('rt-malformed');
    const { socket, received } = await client(token);
    expect(await join(socket, `order_${state.orderId}`)).toEqual({ ok: true });

    await publish({ orderId: state.orderId, processedCount: 'lots' }, { ...state, processedCount: 7 });
    await until('the good event', () => received.length === 2);
    expect(received[1]).toEqual(wire({ ...state, processedCount: 7 }));
    expect(warnings).toContain('ignoring malformed bulk.progress event');
  });

  test('two gateway replicas each relay every event to their own sockets', async () => {
    const token = users.add({ id: 'rt-replicas' });
    const state = order('rt-replicas');
    const a = await startGateway(gatewayWith());
    const b = await startGateway(gatewayWith());
    extraGateways.push(a.app, b.app);
    const onA = await client(token, a.url);
    const onB = await client(token, b.url);
    expect(await join(onA.socket, `order_${state.orderId}`)).toEqual({ ok: true });
    expect(await join(onB.socket, `order_${state.orderId}`)).toEqual({ ok: true });

    const events = [1, 2, 3, 4].map((n) => ({ ...state, processedCount: n }));
    await publish(...events);
    await until('every event on both replicas', () => onA.received.length === 5 && onB.received.length === 5);
    expect(onA.received.slice(1)).toEqual(events.map(wire));
    expect(onB.received.slice(1)).toEqual(events.map(wire));
  });
});
