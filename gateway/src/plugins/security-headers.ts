import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
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
    const extra = opts.extraOrigins;
    await app.register(helmet, {
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
    });
  },
  { name: 'gateway-security-headers' },
);
