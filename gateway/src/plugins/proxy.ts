import rateLimit from '@fastify/rate-limit';
import replyFrom from '@fastify/reply-from';
import { AppError, extractToken, INTERNAL_SECRET_HEADER, REQUEST_ID_HEADER } from '@flatship/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type LoginAttempt, readLoginBody } from '../login-body';
import { GATEWAY_MESSAGES } from '../messages';
import { isPublicRoute, pathOfUrl, resolveRoute, type ServiceName } from '../route-table';

export interface ProxyOptions {
  upstreams: Partial<Record<ServiceName, string>>;
  rateLimit: { max: number; timeWindow: string };
}

// Only login needs its body read at the edge (for the per-email limit); it is tiny.
const LOGIN_BODY_LIMIT = 64 * 1024;

const attemptOf = (request: FastifyRequest) => request.body as LoginAttempt;

// Connection-level headers: they describe one hop, and undici refuses several of them outright.
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/**
 * Everything under /api: checks the path against the route table, refuses a
 * missing or dead token before any service sees the request, rate-limits the
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
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.addHook('onRequest', async (request, reply) => {
    const path = pathOfUrl(request.url);
    if (path === null) throw new AppError('BAD_REQUEST', GATEWAY_MESSAGES.badPath);
    const service = resolveRoute(path);
    if (!service) throw new AppError('NOT_FOUND', GATEWAY_MESSAGES.notFound);
    if (!opts.upstreams[service]) {
      // Expected while a service is not deployed yet, so answered without the error log a thrown 503 gets.
      return reply.code(503).send({ code: 'SERVICE_UNAVAILABLE', message: GATEWAY_MESSAGES.unavailable });
    }
    if (isPublicRoute(request.method, path)) return;
    request.auth = await app.verifyAccessToken(extractToken(request));
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
      // reply-from has already logged the cause.
      onError: (rep) => {
        rep.code(503).send({ code: 'SERVICE_UNAVAILABLE', message: GATEWAY_MESSAGES.unavailable });
      },
    });
  };

  const passThrough = (request: FastifyRequest, reply: FastifyReply) => forward(request, reply);

  const limited = { config: { rateLimit: opts.rateLimit } };
  app.post('/api/auth/register', limited, passThrough);
  app.post('/api/invite/referral/apply', limited, passThrough);
  app.post('/api/auth/login-as-user/*', limited, passThrough);
  await app.register(async (login) => {
    login.removeAllContentTypeParsers();
    login.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: LOGIN_BODY_LIMIT }, (_request, body, done) =>
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
  });
  app.all('/api/*', passThrough);
}
