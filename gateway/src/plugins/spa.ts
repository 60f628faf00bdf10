import { existsSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_MESSAGES } from '../messages';

export interface SpaOptions {
  staticDir: string;
}

// Vite puts a content hash in every asset name, so an asset never changes under its name.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// index.html (and unhashed files like favicon.svg) must be revalidated, or a deploy would keep serving old asset names.
const REVALIDATE = 'no-cache';

/** The built web app's page for every route but `/` (web/prerender/landing.ts). */
const APP_HTML = 'app.html';

/** Paths that belong to the gateway or the API, never to the SPA's router. */
const RESERVED = /^\/(api|socket\.io|healthz|readyz|metrics|routez)(\/|$)/;

/** The file under `root` a URL path names, or null (missing, a directory, a dotfile, or outside root). */
function fileFor(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split(/[/\\]/).some((s) => s.startsWith('.'))) return null;
  const full = join(root, decoded);
  const rel = relative(root, full);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..') return null;
  try {
    return statSync(full).isFile() ? rel.split(sep).join('/') : null;
  } catch {
    return null;
  }
}

/**
 * Serves the built web app, with history fallback: any other GET is a route
 * of the SPA, so it gets index.html and the client-side router takes over.
 * The directory is read per request, so building the web app while the
 * gateway runs is enough; a missing build answers a 503 that says what to do.
 */
export async function spaPlugin(app: FastifyInstance, opts: SpaOptions) {
  const root = opts.staticDir;
  // The build writes a Brotli and a gzip copy of every text file (web/prerender/compress.ts): sent as they
  // are to a browser that accepts them, so nothing is compressed per request and nothing goes out uncompressed.
  await app.register(fastifyStatic, { root, serve: false, cacheControl: false, preCompressed: true });

  app.get('/*', async (request, reply) => {
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    if (RESERVED.test(path)) return reply.callNotFound();

    const file = fileFor(root, path);
    if (file) {
      reply.header('cache-control', file.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
      return reply.sendFile(file);
    }
    // A missing script or stylesheet must fail as such, not arrive as HTML the browser then chokes on.
    if (path.startsWith('/assets/')) return reply.callNotFound();

    if (!existsSync(join(root, 'index.html'))) {
      return reply.code(503).type('text/plain; charset=utf-8').send(GATEWAY_MESSAGES.spaMissing);
    }
    reply.header('cache-control', REVALIDATE);
    // index.html carries the landing page pre-rendered for `/`; every other route gets the same page
    // without it (app.html), so it does not show the landing while its own code loads.
    if (path !== '/' && existsSync(join(root, APP_HTML))) return reply.sendFile(APP_HTML);
    return reply.sendFile('index.html');
  });
}
