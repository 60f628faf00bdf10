import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface SecurityHeadersOptions {
  /** Third-party origins the web app embeds (payment modal, live chat). */
  extraOrigins: string[];
}

/**
 * Helmet with a policy the built SPA runs under: its own scripts only, inline
 * styles because component libraries set style attributes, connections to
 * itself only (socket.io is same-origin, which 'self' covers for ws and wss
 * too) and to the configured extra origins, and never framed by another site.
 * Every response gets it, API answers included, because a JSON error rendered
 * as a page must not run code either.
 *
 * Strict-Transport-Security goes only on answers to requests that came over
 * HTTPS (directly, or per X-Forwarded-Proto from a trusted proxy): over plain
 * HTTP it is ignored by browsers and would claim what this connection is not.
 */
export const securityHeaders = fp(
  async (app: FastifyInstance, opts: SecurityHeadersOptions) => {
    // @fastify/helmet builds helmet's middleware anew (parsing the whole policy) for every request, yet the
    // headers depend only on these options: they are worked out once, by helmet itself, and set as they are.
    const { [HSTS]: hsts, ...headers } = await helmetHeaders(helmetOptions(opts.extraOrigins));
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(headers);
      // `protocol` believes X-Forwarded-Proto only when the gateway trusts its proxy (TRUST_PROXY).
      if (hsts && request.protocol === 'https') reply.header(HSTS, hsts);
      done();
    });
  },
  { name: 'gateway-security-headers' },
);

const HSTS = 'strict-transport-security';

/** The socket origin of an extra origin (a chat widget's live updates): wss for https, ws for http. */
const socketOriginOf = (origin: string) => origin.replace(/^http/, 'ws');

function helmetOptions(extra: string[]): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      // Helmet's defaults add upgrade-insecure-requests, which breaks the app when served over plain http (embedded topology).
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...extra],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...extra],
        connectSrc: ["'self'", ...extra.flatMap((origin) => [origin, socketOriginOf(origin)])],
        fontSrc: ["'self'", 'data:'],
        frameSrc: ["'self'", ...extra],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/** The headers helmet sets with `options`, read from one request answered by a scratch app. */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const scratch = Fastify({ logger: false });
  await scratch.register(helmet, options);
  let seen: Record<string, string> = {};
  scratch.get('/', (_request, reply) => {
    seen = Object.fromEntries(Object.entries(reply.raw.getHeaders()).map(([k, v]) => [k, String(v)]));
    reply.send('');
  });
  await scratch.inject('/');
  await scratch.close();
  return seen;
}
