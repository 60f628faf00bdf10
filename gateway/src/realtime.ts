import type { Server as HttpServer } from 'node:http';
import { type AuthContext, isAppError } from '@flatship/kit';
import type { TokenState } from '@flatship/proto';
import { Server } from 'socket.io';

export const SOCKET_PATH = '/socket.io';

export interface SocketData {
  auth: AuthContext;
}

// Order-room events (joinOrderRoom → orderProgress) are added with bulk orders.
// biome-ignore lint/complexity/noBannedTypes: socket.io's generics take event maps; there are no events yet.
type NoEvents = {};
export type RealtimeServer = Server<NoEvents, NoEvents, NoEvents, SocketData>;

interface RealtimeLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface Realtime {
  io: RealtimeServer;
  /** Disconnects the user's sockets whose session a change has ended (blocked, deleted, token version bumped). */
  endRevokedSessions(state: TokenState & { deleted?: boolean }): Promise<void>;
  close(): void;
}

const userRoom = (userId: string) => `user:${userId}`;

const UNEXPECTED = 'Something went wrong on our side. Please try again.';

/**
 * socket.io on the gateway's own HTTP server. The client authenticates in the
 * handshake (`io(origin, { auth: { token } })`); a refused handshake reaches
 * the client as `connect_error` whose message is the same text the HTTP API
 * would answer, and whose `data.code` is the same code.
 */
export function attachRealtime(
  server: HttpServer,
  verifyAccessToken: (token: string | undefined) => Promise<AuthContext>,
  log: RealtimeLogger,
): Realtime {
  const io: RealtimeServer = new Server(server, { path: SOCKET_PATH, serveClient: false });

  io.use(async (socket, next) => {
    const raw: unknown = socket.handshake.auth?.token;
    try {
      socket.data.auth = await verifyAccessToken(typeof raw === 'string' && raw.length > 0 ? raw : undefined);
      next();
    } catch (e) {
      if (!isAppError(e)) log.error({ err: e }, 'socket handshake failed');
      const refusal = new Error(isAppError(e) ? e.message : UNEXPECTED) as Error & { data?: unknown };
      refusal.data = { code: isAppError(e) ? e.code : 'INTERNAL' };
      next(refusal);
    }
  });

  io.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.auth.userId));
  });

  return {
    io,
    async endRevokedSessions(state) {
      const sockets = await io.in(userRoom(state.id)).fetchSockets();
      for (const s of sockets) {
        if (state.deleted || state.activation === 'block' || s.data.auth.tokenVersion !== state.tokenVersion) {
          s.disconnect(true);
        }
      }
    },
    close() {
      // Not io.close(): that would also close the HTTP server, which Fastify owns and closes itself.
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
