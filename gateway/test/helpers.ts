import { sign as cryptoSign } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCachedTokenState, createServiceApp, type ServiceApp } from '@flatship/kit';
import { generateTokenKeys } from '@flatship/kit/testing';
import type { TokenClaims, TokenState, UserChangedEvent } from '@flatship/proto';
import Fastify from 'fastify';
import { buildGateway, type GatewayDeps } from '../src/app';
import type { ServiceName } from '../src/route-table';
import type { UserChangeFeed } from '../src/user-changes';

export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface StandInService {
  name: string;
  url: string;
  seen: SeenRequest[];
  ready: boolean;
  close(): Promise<void>;
}

/**
 * A real HTTP service standing in for one of ours, built with the same
 * toolkit (so it refuses bodies over `bodyLimit`, kit's default 1 MiB, the
 * way a service does): it records and echoes every /api request it receives,
 * and answers /readyz according to `ready`.
 */
export async function startStandInService(name: string, opts: { bodyLimit?: number } = {}): Promise<StandInService> {
  const service: StandInService = { name, url: '', seen: [], ready: true, close: async () => {} };
  const app = createServiceApp({
    name,
    logger: false,
    ...(opts.bodyLimit ? { bodyLimit: opts.bodyLimit } : {}),
    readiness: [
      async () => {
        if (!service.ready) throw new Error('not ready');
      },
    ],
  });
  service.close = () => app.close();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.all('/api/*', async (req) => {
    const seen = {
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: (req.body as string | undefined) ?? '',
    };
    service.seen.push(seen);
    return { service: name, ...seen };
  });
  service.url = await app.listen({ host: '127.0.0.1', port: 0 });
  return service;
}

/** An address nothing listens on: a service that is configured but down. */
export async function deadAddress(): Promise<string> {
  const app = Fastify();
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  await app.close();
  return url;
}

export const keys = generateTokenKeys();
/** The internal secret the gateway is given; download tokens are keyed from it. */
export const INTERNAL_SECRET = 'gateway-test-internal-secret';
export const otherKeys = generateTokenKeys();

/** Signs claims exactly as given, so tests can build tokens auth would never issue (expired, foreign key). */
export function signToken(
  claims: Partial<TokenClaims> & { exp?: number; iat?: number },
  privateKey: string = keys.privateKey,
): string {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const data = `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64({ iat: now, exp: now + 3600, ...claims })}`;
  return `${data}.${cryptoSign(null, Buffer.from(data), privateKey).toString('base64url')}`;
}

/** The token states auth would answer, editable by a test. */
export function createUserDirectory(ttlMs = 0) {
  const states = new Map<string, TokenState>();
  const fetched: string[] = [];
  const tokenState = createCachedTokenState(async (id) => {
    fetched.push(id);
    return states.get(id) ?? null;
  }, ttlMs);
  return {
    states,
    fetched,
    tokenState,
    add(state: Partial<TokenState> & { id: string }): string {
      const full: TokenState = { role: 'user', activation: 'allow', tokenVersion: 1, ...state };
      states.set(full.id, full);
      return signToken({ sub: full.id, role: full.role, ver: full.tokenVersion });
    },
  };
}

/** A `user.changed` feed a test publishes to by hand. */
export function createManualFeed() {
  const handlers: ((e: UserChangedEvent) => Promise<void> | void)[] = [];
  const feed: UserChangeFeed = {
    async subscribe(onChange) {
      handlers.push(onChange);
      return {
        close: async () => {
          handlers.splice(handlers.indexOf(onChange), 1);
        },
      };
    },
  };
  return {
    feed,
    get subscribers() {
      return handlers.length;
    },
    async publish(event: UserChangedEvent) {
      for (const h of handlers) await h(event);
    },
  };
}

export function createStaticDir(withIndex = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-spa-'));
  mkdirSync(join(dir, 'assets'));
  if (withIndex) writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'x.js'), 'console.log("x")');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, '.env'), 'SECRET=1');
  return dir;
}

export function gatewayDeps(overrides: {
  upstreams: Partial<Record<ServiceName, string>>;
  tokenState: GatewayDeps['tokenState'];
  staticDir?: string;
  rateLimitMax?: number;
  userChanges?: UserChangeFeed;
  readyAlso?: Record<string, string>;
  /** How long one upstream readiness check may take (default 5 s: a busy machine must not fail a healthy one). */
  upstreamReadyTimeoutMs?: number;
}): GatewayDeps {
  return {
    logger: false,
    tokenState: overrides.tokenState,
    ...(overrides.userChanges ? { userChanges: overrides.userChanges } : {}),
    config: {
      upstreams: overrides.upstreams,
      staticDir: overrides.staticDir ?? createStaticDir(),
      rateLimit: { max: overrides.rateLimitMax ?? 1000, timeWindow: '1 minute' },
      trustProxy: false,
      jwtPublicKey: keys.publicKey,
      internalSecret: INTERNAL_SECRET,
      upstreamReadyTimeoutMs: overrides.upstreamReadyTimeoutMs ?? 5_000,
      cspExtraOrigins: [],
      ...(overrides.readyAlso ? { readyAlso: overrides.readyAlso } : {}),
    },
  };
}

export async function startGateway(deps: GatewayDeps): Promise<{ app: ServiceApp; url: string }> {
  const app = await buildGateway(deps);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url };
}
