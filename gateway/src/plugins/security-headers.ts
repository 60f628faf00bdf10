import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface SecurityHeadersOptions {
  /** Third-party origins the web app embeds (payment modal, live chat). */
  extraOrigins: string[];
}

/**
 * Helmet with a policy the built SPA runs under: its own scripts only, inline
 * styles because component libraries set style attributes, socket.io over
 * ws/wss, and never framed by another site. Every response gets it, API
 * answers included, because a JSON error rendered as a page must not run code either.
 */
export const securityHeaders = fp(
  async (app: FastifyInstance, opts: SecurityHeadersOptions) => {
    // @fastify/helmet builds helmet's middleware anew (parsing the whole policy) for every request, yet the
    // headers depend only on these options: they are worked out once, by helmet itself, and set as they are.
    const headers = await helmetHeaders(helmetOptions(opts.extraOrigins));
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'gateway-security-headers' },
);

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
        connectSrc: ["'self'", 'ws:', 'wss:', ...extra],
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
