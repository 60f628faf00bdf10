import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BODY_LIMITS } from '@flatship/proto';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { isDatabaseUnavailable } from './db-basics';
import { AppError, isAppError, statusOf, UNAVAILABLE_MESSAGE } from './errors';
import { createMetricsRegistry, observeHttpRequests } from './metrics';
import { bindRequestContext, REQUEST_ID_HEADER } from './request-context';
import { parseBodiesAsStrictUtf8 } from './utf8-body';
import { findTextProblem, typeboxValidatorCompiler } from './validation';

export type ServiceApp = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export type ReadinessCheck = () => Promise<void>;

export interface CreateServiceAppOptions {
  name: string;
  logger: Logger | false;
  /** Checked by /readyz; each throws when its dependency is not usable. */
  readiness?: ReadinessCheck[];
  bodyLimit?: number;
  /** Trust X-Forwarded-* from the gateway in front. */
  trustProxy?: boolean;
  /**
   * Where `/metrics` and `/routez` are served: on the app's own port (default,
   * for services, whose port is reachable only inside the cluster), or only on
   * a management listener (`startManagementListener`), for the gateway, whose
   * port is public.
   */
  management?: 'same-port' | 'separate';
  /**
   * A registry made beforehand with `createMetricsRegistry`, for what is built
   * before the app and measures into it (a bus adapter's consumer lag); by
   * default the app makes its own. Either way it is `app.metrics`.
   */
  metrics?: Registry;
}

/** What the management routes show of an app; kept on it so a management listener can serve them. */
interface ManagementView {
  name: string;
  registry: Registry;
  publicRoutes: { method: string; url: string }[];
}

const managementOf = new WeakMap<object, ManagementView>();
const shuttingDown = new WeakSet<object>();

/**
 * From now on `/readyz` answers 503, so a load balancer stops sending new
 * requests while the ones in flight finish. `runService` calls it first thing
 * on SIGTERM.
 */
export function beginShutdown(app: FastifyInstance): void {
  shuttingDown.add(app);
}

function addManagementRoutes(target: FastifyInstance, view: ManagementView): void {
  target.get('/routez', { logLevel: 'warn' }, async () => ({ service: view.name, routes: view.publicRoutes }));
  target.get('/metrics', { logLevel: 'warn' }, async (_req, reply) => {
    reply.header('content-type', view.registry.contentType);
    return view.registry.metrics();
  });
}

/**
 * A listener of its own for `app`'s `/metrics` and `/routez` (and `/healthz`),
 * for an app whose own port is public (`management: 'separate'`). Bound to
 * `host` (default 127.0.0.1, so only the machine or pod itself reaches it).
 */
export async function startManagementListener(
  app: FastifyInstance,
  opts: { host?: string; port: number },
): Promise<{ port: number; close(): Promise<void> }> {
  const view = managementOf.get(app);
  if (!view) throw new Error('startManagementListener needs an app built by createServiceApp');
  const management = Fastify({ logger: false });
  management.get('/healthz', async () => ({ status: 'ok', service: view.name }));
  addManagementRoutes(management, view);
  await management.listen({ host: opts.host ?? '127.0.0.1', port: opts.port });
  const address = management.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: () => management.close(),
  };
}

/**
 * One log line per request, written when it is answered, with the request
 * (method, url, id) and the answer (status, time): Fastify's default is a line
 * when the request arrives and another when it is answered, which doubled the
 * logging work of every call on the hot path (in the gateway and again in the
 * service). A request that fails is logged as before.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error || this.isLogDisabled(request)) {
      super.requestCompleted(error, request, reply);
      return;
    }
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * Builds a Fastify instance with what every service shares: TypeBox
 * validation, request ids carried across services, one error format
 * `{ code, message }`, health and readiness, and Prometheus metrics.
 */
export function createServiceApp(opts: CreateServiceAppOptions): ServiceApp {
  const app = Fastify({
    loggerInstance: opts.logger === false ? undefined : opts.logger,
    logger: opts.logger === false ? false : undefined,
    bodyLimit: opts.bodyLimit ?? BODY_LIMITS.default,
    trustProxy: opts.trustProxy ?? true,
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
    logController: new OneLinePerRequest(),
    // Consumers subscribe when the app becomes ready and wait to join their group. On Kafka that takes
    // until the session of a replica that died has expired and the group has rebalanced (bounded by the
    // bus's join timeout), far past Fastify's 10 s default, which would stop a replacement from starting.
    pluginTimeout: 90_000,
    ajv: undefined,
  } as Parameters<typeof Fastify>[0]).withTypeProvider<TypeBoxTypeProvider>() as unknown as ServiceApp;

  app.setValidatorCompiler(typeboxValidatorCompiler);
  // Bytes that are not UTF-8 are a 400 naming the field, like text that is not Unicode (below), never U+FFFD.
  parseBodiesAsStrictUtf8(app);

  const registry = opts.metrics ?? createMetricsRegistry(opts.name);
  app.decorate('metrics', registry);
  // First, so every later hook, the handler and what they start see the request id (events, internal calls, logs).
  bindRequestContext(app);
  observeHttpRequests(app, registry);

  // Before any schema check or handler, for every route of every service, declared or not:
  // text PostgreSQL cannot store or that is not Unicode answered 500 (or was silently changed)
  // before; now it is a 400 naming the field. Bodies that are not parsed JSON or text (the
  // gateway's streams, the webhook's raw bytes) are left alone. An array longer than its schema allows
  // is refused here too, by its length, before anything walks its elements.
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema;
    const message =
      findTextProblem(request.params, schema?.params, 'params') ??
      findTextProblem(request.query, schema?.querystring, 'query') ??
      findTextProblem(request.body, schema?.body, 'body');
    if (message) throw new AppError('VALIDATION_FAILED', message);
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    // A kept-alive connection would otherwise hold the shutdown until the client drops it: each answer given
    // while shutting down ends its connection, and the client opens a new one (to another replica).
    if (shuttingDown.has(app)) reply.header('connection', 'close');
  });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    // The database is away (down, restarting): a temporary condition worth retrying, not a bug.
    if (!isAppError(error) && isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'request failed: the database is unreachable');
      return reply.status(503).send({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE });
    }
    if (isAppError(error)) {
      const status = statusOf(error.code);
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      if (error.retryAfterS !== undefined) reply.header('retry-after', String(error.retryAfterS));
      return reply.status(status).send({ code: error.code, message: error.message });
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      return reply.status(400).send({ code: 'VALIDATION_FAILED', message: fe.message });
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (fe instanceof SyntaxError && fe.statusCode === 400)) {
      return reply.status(400).send({ code: 'BAD_JSON', message: 'The request body is not valid JSON' });
    }
    if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(400).send({ code: 'BAD_JSON', message: 'The request body is empty but JSON was declared' });
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Fastify closes the connection after this answer, often while the sender is still writing the body, and
      // the sender (the gateway) then sees a broken connection instead of the 413. Node reads and drops the rest
      // of the body instead; only the gateway reaches a service, and it never sends more than its own limit.
      reply.removeHeader('connection');
      return reply.status(413).send({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' });
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ code: 'BAD_REQUEST', message: 'Unsupported content type' });
    }
    const status = fe.statusCode && fe.statusCode >= 400 ? fe.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      // Never leak internals to a client.
      return reply
        .status(status)
        .send({ code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' });
    }
    if (status === 429) return reply.status(429).send({ code: 'RATE_LIMITED', message: fe.message });
    return reply.status(status).send({ code: fe.code ?? 'BAD_REQUEST', message: fe.message });
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ code: 'NOT_FOUND', message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok', service: opts.name }));
  app.get('/readyz', { logLevel: 'warn' }, async (_req, reply) => {
    if (shuttingDown.has(app)) {
      return reply.status(503).send({ code: 'SERVICE_UNAVAILABLE', message: `${opts.name} is shutting down` });
    }
    try {
      for (const check of opts.readiness ?? []) await check();
      return { status: 'ready', service: opts.name };
    } catch (e) {
      return reply
        .status(503)
        .send({ code: 'SERVICE_UNAVAILABLE', message: `${opts.name} is not ready: ${(e as Error).message}` });
    }
  });
  // Every public route (under /api), so a test can hold the authorisation table to what the services really answer.
  // Like /metrics, it is on the service's own port only (the gateway proxies /api paths, never this one), or on the
  // management listener of an app whose port is public.
  const publicRoutes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') publicRoutes.push({ method, url: route.url });
  });
  const view: ManagementView = { name: opts.name, registry, publicRoutes };
  managementOf.set(app, view);
  if (opts.management !== 'separate') addManagementRoutes(app, view);

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}
