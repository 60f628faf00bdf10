import type { Server as HttpServer } from 'node:http';
import { type AuthContext, isAppError } from '@flatship/kit';
import {
  type BulkProgressEvent,
  ORDER_ROOM_PATTERN,
  type OrderProgress,
  type OrderRoomAck,
  orderIdOfRoom,
  orderRoomName,
  REALTIME_EVENTS,
  type TokenState,
} from '@flatship/proto';
import { Server, type Socket } from 'socket.io';
import { GATEWAY_MESSAGES } from './messages';
import type { OrderLookup } from './order-lookup';

export const SOCKET_PATH = '/socket.io';

/** Order rooms one connection may follow at once; the web app shows one progress window at a time. */
export const MAX_ORDER_ROOMS_PER_SOCKET = 20;

export interface SocketData {
  auth: AuthContext;
  /** Order rooms joined or being joined, so the limit holds while lookups are in flight. */
  orderRooms: Set<string>;
}

type Ack = (reply: OrderRoomAck) => void;

// Arguments are typed `unknown`: a client can send anything, so every handler checks what it got.
type RoomRequest = (roomName: unknown, ack?: unknown) => void;
interface ClientEvents {
  [REALTIME_EVENTS.joinOrderRoom]: RoomRequest;
  [REALTIME_EVENTS.leaveOrderRoom]: RoomRequest;
}
interface ServerEvents {
  [REALTIME_EVENTS.orderProgress]: (progress: OrderProgress) => void;
}
// biome-ignore lint/complexity/noBannedTypes: socket.io's generics take event maps; there are no inter-server events.
type NoEvents = {};
export type RealtimeServer = Server<ClientEvents, ServerEvents, NoEvents, SocketData>;
type RealtimeSocket = Socket<ClientEvents, ServerEvents, NoEvents, SocketData>;

interface RealtimeLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface RealtimeOptions {
  verifyAccessToken: (token: string | undefined) => Promise<AuthContext>;
  log: RealtimeLogger;
  /** How order rooms learn who owns an order and where it stands; without it no room can be joined. */
  orders?: OrderLookup;
  maxOrderRoomsPerSocket?: number;
}

export interface Realtime {
  io: RealtimeServer;
  /**
   * Disconnects the sockets whose session a change of this user has ended: their own (blocked, deleted, token
   * version bumped), and the Login As sessions they opened as an admin (no longer an active admin, or gone back
   * to their own account).
   */
  endRevokedSessions(state: TokenState & { deleted?: boolean }): Promise<void>;
  /** Emits `orderProgress` to everyone following the order on this replica. */
  relayProgress(event: BulkProgressEvent): void;
  close(): void;
}

const userRoom = (userId: string) => `user:${userId}`;
/** Every socket of a Login As session of this admin, whichever user it acts as. */
const impersonatorRoom = (adminId: string) => `impersonator:${adminId}`;

const UNEXPECTED = 'Something went wrong on our side. Please try again.';

// A session that has ended stays ended; an expired token only needs a fresh log-in, which reconnects anyway.
const SESSION_ENDED = new Set(['AUTH_TOKEN_REVOKED', 'AUTH_ACCOUNT_BLOCKED', 'AUTH_INVALID_TOKEN']);

function progressOf(e: BulkProgressEvent): OrderProgress {
  return {
    orderId: e.orderId,
    processedCount: e.processedCount,
    failedCount: e.failedCount,
    refundedCount: e.refundedCount ?? 0,
    totalCount: e.totalCount,
    status: e.status,
    fileData: e.fileData,
  };
}

const refusal = (code: string, message: string): OrderRoomAck => ({ ok: false, code, message });

/**
 * socket.io on the gateway's own HTTP server. The client authenticates in the
 * handshake (`io(origin, { auth: { token } })`); a refused handshake reaches
 * the client as `connect_error` whose message is the same text the HTTP API
 * would answer, and whose `data.code` is the same code.
 *
 * Bulk progress: `joinOrderRoom('order_<id>', ack)` joins only the order's
 * owner or an admin, and sends that socket the order's current state at once,
 * which is how a reconnecting client (it joins again) catches up.
 */
export function attachRealtime(server: HttpServer, opts: RealtimeOptions): Realtime {
  const { verifyAccessToken, log, orders } = opts;
  const maxRooms = opts.maxOrderRoomsPerSocket ?? MAX_ORDER_ROOMS_PER_SOCKET;
  const io: RealtimeServer = new Server(server, { path: SOCKET_PATH, serveClient: false });

  io.use(async (socket, next) => {
    try {
      socket.data.auth = await verifyAccessToken(tokenOf(socket));
      socket.data.orderRooms = new Set();
      next();
    } catch (e) {
      if (!isAppError(e)) log.error({ err: e }, 'socket handshake failed');
      const refused = new Error(isAppError(e) ? e.message : UNEXPECTED) as Error & { data?: unknown };
      refused.data = { code: isAppError(e) ? e.code : 'INTERNAL' };
      next(refused);
    }
  });

  async function joinOrderRoom(socket: RealtimeSocket, roomName: unknown): Promise<OrderRoomAck> {
    if (typeof roomName !== 'string' || !ORDER_ROOM_PATTERN.test(roomName)) {
      return refusal('BAD_REQUEST', GATEWAY_MESSAGES.badOrderRoom);
    }
    if (!orders) return refusal('SERVICE_UNAVAILABLE', GATEWAY_MESSAGES.orderUpdatesUnavailable);
    const rooms = socket.data.orderRooms;
    const again = rooms.has(roomName);
    if (!again && rooms.size >= maxRooms) return refusal('BAD_REQUEST', GATEWAY_MESSAGES.tooManyOrderRooms);
    // Held before the lookups so a burst of joins cannot get past the limit (or flood orders).
    rooms.add(roomName);
    let joined = false;
    try {
      // Checked again, not taken from the handshake: a user blocked since must not start following orders.
      let auth: AuthContext;
      try {
        auth = await verifyAccessToken(tokenOf(socket));
      } catch (e) {
        if (isAppError(e) && SESSION_ENDED.has(e.code)) setImmediate(() => socket.disconnect(true));
        throw e;
      }
      const orderId = orderIdOfRoom(roomName);
      const order = await orders(orderId);
      // The same answer for someone else's order as for none: a probe must not learn which ids exist.
      if (!order || (order.userId !== auth.userId && auth.role !== 'admin')) {
        return refusal('NOT_FOUND', GATEWAY_MESSAGES.orderNotFound);
      }
      if (socket.disconnected) return refusal('SERVICE_UNAVAILABLE', GATEWAY_MESSAGES.orderUpdatesUnavailable);
      await socket.join(roomName);
      joined = true;
      // Read again after joining: an event relayed while the first read was in flight would otherwise be missed,
      // and a final one (files ready) would never come again. Later events all reach the room.
      const current = (await orders(orderId).catch(() => null)) ?? order;
      socket.emit(REALTIME_EVENTS.orderProgress, progressOf(current));
      return { ok: true };
    } catch (e) {
      if (!isAppError(e)) log.error({ err: e }, 'joining an order room failed');
      return isAppError(e) ? refusal(e.code, e.message) : refusal('INTERNAL', UNEXPECTED);
    } finally {
      if (!joined && !again) rooms.delete(roomName);
    }
  }

  io.on('connection', (socket) => {
    const { userId, impersonatorId } = socket.data.auth;
    void socket.join(impersonatorId ? [userRoom(userId), impersonatorRoom(impersonatorId)] : userRoom(userId));

    socket.on(REALTIME_EVENTS.joinOrderRoom, (roomName, ack) => {
      void joinOrderRoom(socket, roomName).then((reply) => {
        if (typeof ack === 'function') (ack as Ack)(reply);
      });
    });

    socket.on(REALTIME_EVENTS.leaveOrderRoom, (roomName, ack) => {
      let reply: OrderRoomAck = { ok: true };
      if (typeof roomName !== 'string' || !ORDER_ROOM_PATTERN.test(roomName)) {
        reply = refusal('BAD_REQUEST', GATEWAY_MESSAGES.badOrderRoom);
      } else {
        socket.data.orderRooms.delete(roomName);
        void socket.leave(roomName);
      }
      if (typeof ack === 'function') (ack as Ack)(reply);
    });
  });

  return {
    io,
    async endRevokedSessions(state) {
      const [own, visits] = await Promise.all([
        io.in(userRoom(state.id)).fetchSockets(),
        io.in(impersonatorRoom(state.id)).fetchSockets(),
      ]);
      for (const s of own) {
        if (state.deleted || state.activation === 'block' || s.data.auth.tokenVersion !== state.tokenVersion) {
          s.disconnect(true);
        }
      }
      // The same rule as the token check (kit's verifyAccessToken) applies to a Login As token's admin.
      const isActiveAdmin = !state.deleted && state.role === 'admin' && state.activation === 'allow';
      for (const s of visits) {
        if (!isActiveAdmin || s.data.auth.impersonationVersion !== state.impersonationVersion) s.disconnect(true);
      }
    },
    relayProgress(event) {
      io.to(orderRoomName(event.orderId)).emit(REALTIME_EVENTS.orderProgress, progressOf(event));
    },
    close() {
      // Not io.close(): that would also close the HTTP server, which Fastify owns and closes itself.
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}

function tokenOf(socket: RealtimeSocket): string | undefined {
  const raw: unknown = socket.handshake.auth?.token;
  return typeof raw === 'string' && raw.length > 0 ? raw : undefined;
}
