import type { IncomingMessage } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import rateLimit from '@fastify/rate-limit';
import replyFrom from '@fastify/reply-from';
import {
  AppError,
  downloadPathOf,
  extractToken,
  INTERNAL_SECRET_HEADER,
  queryTokenOf,
  REQUEST_ID_HEADER,
  setRouteLabel,
} from '@flatship/kit';
import { BODY_LIMITS } from '@flatship/proto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type LoginAttempt, notUtf8LoginBody, readLoginBody } from '../login-body';
import { GATEWAY_MESSAGES } from '../messages';
import { bodyLimitOf, isPublicRoute, pathOfUrl, resolveRoute, routeEntryOf, type ServiceName } from '../route-table';

export interface ProxyOptions {
  upstreams: Partial<Record<ServiceName, string>>;
  rateLimit: { max: number; timeWindow: string };
}

const attemptOf = (request: FastifyRequest) => request.body as LoginAttempt;

/**
 * After answering, the part of a body the client has not sent yet is read and
 * dropped so the connection can carry its next request; past this much the
 * connection is closed instead (twice the largest body any call accepts).
 */
const MAX_DRAIN = 32 * 1024 * 1024;

// Connection-level headers: they describe one hop, and undici refuses several of them outright.
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', GATEWAY_MESSAGES.payloadTooLarge);

/**
 * The client's body as the stream forwarded upstream, cut off with an error
 * past `limit` bytes (a chunked body announces no length). Piped, not
 * pipelined: when the upstream stops reading (it answered early, or failed),
 * the client's request must stay open so the rest can be drained.
 */
function meteredBody(raw: IncomingMessage, payload: Readable, limit: number, onTooLarge: () => void): Readable {
  let seen = 0;
  const metered = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen <= limit) return callback(null, chunk);
      onTooLarge();
      callback(tooLarge());
    },
  });
  payload.pipe(metered);
  // A client that goes away mid-body must not leave the upstream request waiting for the rest.
  raw.once('close', () => {
    if (!raw.complete) metered.destroy(new Error('the client closed the connection before sending the whole body'));
  });
  return metered;
}

/** Reads and drops what is left of a request body once it has been answered (see MAX_DRAIN). */
function drainRest(raw: IncomingMessage): void {
  if (raw.complete || raw.destroyed) return;
  // Whatever it was forwarded to is finished with it.
  raw.unpipe();
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > MAX_DRAIN) raw.socket.destroy();
  });
  raw.resume();
}

/**
 * Everything under /api: checks the path against the route table, refuses a
 * missing or dead token (a session token in the `token` header, or a download
 * link's token for that path) before any service sees the request, rate-limits the
 * calls that guess secrets, and forwards the rest unchanged (method, path,
 * query, body bytes, `token`) to the service that owns the path.
 */
export async function proxyPlugin(app: FastifyInstance, opts: ProxyOptions) {
  await app.register(replyFrom, {
    disableRequestLogging: true,
    undici: { connections: 128, pipelining: 1, keepAliveTimeout: 30_000 },
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError('RATE_LIMITED', GATEWAY_MESSAGES.rateLimited),
  });

  // Bodies pass through as streams, byte for byte: the BTCPay webhook signature
  // is computed over the raw body, and uploads should not be buffered here.
  // Each is counted on the way, against the limit of the call it is sent to.
  // Requests whose body was cut off, by their raw request.
  const cutOff = new WeakSet<object>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => {
    // The path was checked in onRequest.
    const limit = bodyLimitOf(request.method, pathOfUrl(request.url)!);
    done(
      null,
      meteredBody(request.raw, payload, limit, () => cutOff.add(request.raw)),
    );
  });
  app.addHook('onResponse', async (request) => drainRest(request.raw));

  app.addHook('onRequest', async (request, reply) => {
    const path = pathOfUrl(request.url);
    if (path === null) throw new AppError('BAD_REQUEST', GATEWAY_MESSAGES.badPath);
    const entry = routeEntryOf(path);
    if (!entry) throw new AppError('NOT_FOUND', GATEWAY_MESSAGES.notFound);
    const service = entry.service;
    // The durations histogram tells the services apart by the prefix that answered, not the one `/api/*` route.
    setRouteLabel(request, `${entry.prefix}/*`);
    if (!opts.upstreams[service]) {
      // Expected while a service is not deployed yet, so answered without the error log a thrown 503 gets.
      return reply.code(503).send({ code: 'SERVICE_UNAVAILABLE', message: GATEWAY_MESSAGES.unavailable });
    }
    // Refused before a byte of the body is read (or, with Expect: 100-continue, sent).
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > bodyLimitOf(request.method, path)) {
      if (declared > MAX_DRAIN) reply.header('connection', 'close');
      throw tooLarge();
    }
    if (isPublicRoute(request.method, path)) return;
    // The session token travels in the header only. Without one, a `?token=` can only be a download
    // token, and only for this very path (the one orders issued it for); a session token there is refused.
    const session = extractToken(request);
    const link = session ? undefined : queryTokenOf(request);
    request.auth = link
      ? await app.verifyDownloadToken(link, downloadPathOf(request.url))
      : await app.verifyAccessToken(session);
  });

  /** Forwards the request; `replaced` is a body to send instead of the client's. */
  const forward = (request: FastifyRequest, reply: FastifyReply, replaced?: { body: string; contentType: string }) => {
    // Both were checked in onRequest.
    const path = pathOfUrl(request.url)!;
    const base = opts.upstreams[resolveRoute(path)!]!;
    return reply.from(`${base}${path}`, {
      ...replaced,
      // A service answering 503 is not ready; retrying here would only hold the client longer.
      retryDelay: () => null,
      rewriteRequestHeaders: (req, headers) => {
        const out = { ...headers };
        for (const name of HOP_BY_HOP) delete out[name];
        // Answered by the gateway itself (expect-continue.ts).
        delete out.expect;
        delete out[INTERNAL_SECRET_HEADER];
        out[REQUEST_ID_HEADER] = req.id;
        // Rewritten, not appended: services trust these, and a client-sent chain is not to be trusted.
        out['x-forwarded-for'] = req.ip;
        out['x-forwarded-proto'] = req.protocol;
        out['x-forwarded-host'] = req.host;
        return out;
      },
      rewriteHeaders: (headers) => {
        const out = { ...headers };
        // The service's connection is not the client's: a service closing its own after an early answer
        // must not close the client's, whose unread body is drained instead (onResponse).
        for (const name of HOP_BY_HOP) delete out[name];
        return out;
      },
      onResponse: (_request, rep, res) => {
        // reply-from marks the connection for closing when the body was not all read; it is drained instead.
        rep.removeHeader('connection');
        rep.send(res.stream);
      },
      // reply-from has already logged the cause.
      onError: (rep) => {
        if (cutOff.has(rep.request.raw)) return rep.send(tooLarge());
        rep.code(503).send({ code: 'SERVICE_UNAVAILABLE', message: GATEWAY_MESSAGES.unavailable });
      },
    });
  };

  const passThrough = (request: FastifyRequest, reply: FastifyReply) => forward(request, reply);

  const limited = { config: { rateLimit: opts.rateLimit } };
  app.post('/api/auth/register', limited, passThrough);
  app.post('/api/invite/referral/apply', limited, passThrough);
  app.post('/api/auth/login-as-user/*', limited, passThrough);
  // Guessing reset tokens is as much an attack on accounts as guessing passwords.
  app.post('/api/auth/reset-password', limited, passThrough);
  await app.register(async (login) => {
    login.removeAllContentTypeParsers();
    login.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMITS.login }, (_request, body, done) =>
      done(null, body),
    );
    // Per email as well as per address: spreading guesses over many addresses must not help against one account.
    const perEmail = login.createRateLimit({
      ...opts.rateLimit,
      keyGenerator: (request) => `email:${attemptOf(request).email}`,
    });
    login.post(
      '/api/auth/login',
      {
        ...limited,
        preValidation: async (request) => {
          const notUtf8 = notUtf8LoginBody(request.headers['content-type'], request.body);
          if (notUtf8) throw new AppError('VALIDATION_FAILED', notUtf8);
          // Whatever auth could accept is counted, so whatever cannot be counted is refused here.
          const attempt = readLoginBody(request.headers['content-type'], request.body);
          if (!attempt) throw new AppError('BAD_REQUEST', GATEWAY_MESSAGES.badLoginBody);
          request.body = attempt;
        },
        preHandler: async (request) => {
          const verdict = await perEmail(request);
          if (!verdict.isAllowed && verdict.isExceeded) {
            throw new AppError('RATE_LIMITED', GATEWAY_MESSAGES.rateLimited);
          }
        },
      },
      (request, reply) => forward(request, reply, { body: attemptOf(request).json, contentType: 'application/json' }),
    );
    // Asking for a reset sends mail: limited per address, and per email so nobody can flood one inbox from
    // many addresses. Its body is read like a login's ({ email }), with counters of its own, so asking for
    // resets never locks anyone out of logging in.
    const perResetEmail = login.createRateLimit({
      ...opts.rateLimit,
      keyGenerator: (request) => `forgot-password:${attemptOf(request).email}`,
    });
    login.post(
      '/api/auth/forgot-password',
      {
        ...limited,
        preValidation: async (request) => {
          const notUtf8 = notUtf8LoginBody(request.headers['content-type'], request.body);
          if (notUtf8) throw new AppError('VALIDATION_FAILED', notUtf8);
          const attempt = readLoginBody(request.headers['content-type'], request.body);
          if (!attempt) throw new AppError('BAD_REQUEST', GATEWAY_MESSAGES.badResetBody);
          request.body = attempt;
        },
        preHandler: async (request) => {
          const verdict = await perResetEmail(request);
          if (!verdict.isAllowed && verdict.isExceeded) {
            throw new AppError('RATE_LIMITED', GATEWAY_MESSAGES.rateLimited);
          }
        },
      },
      (request, reply) => forward(request, reply, { body: attemptOf(request).json, contentType: 'application/json' }),
    );
  });
  app.all('/api/*', passThrough);
}
