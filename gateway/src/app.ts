import {
  authPlugin,
  type CreateServiceAppOptions,
  createServiceApp,
  downloadTokenPlugin,
  type ServiceApp,
  subscribeWhileOpen,
  type TokenStateSource,
} from '@flatship/kit';
import type { UserChangedEvent } from '@flatship/proto';
import type { ProgressFeed } from './bulk-progress';
import type { GatewayConfig } from './config';
import { answerExpectContinue } from './expect-continue';
import { type PublishImpersonationAction, recordImpersonatedChanges } from './impersonation-audit';
import type { OrderLookup } from './order-lookup';
import { proxyPlugin } from './plugins/proxy';
import { securityHeaders } from './plugins/security-headers';
import { spaPlugin } from './plugins/spa';
import { createUpstreamReadiness } from './readiness';
import { attachRealtime } from './realtime';
import type { UserChangeFeed } from './user-changes';

export interface GatewayDeps {
  config: Pick<
    GatewayConfig,
    | 'upstreams'
    | 'staticDir'
    | 'rateLimit'
    | 'trustProxy'
    | 'jwtPublicKey'
    | 'internalSecret'
    | 'upstreamReadyTimeoutMs'
    | 'cspExtraOrigins'
  > &
    Partial<Pick<GatewayConfig, 'readyAlso'>>;
  logger: CreateServiceAppOptions['logger'];
  /** Current token states, cached; `apply` updates an entry the moment a change arrives. */
  tokenState: TokenStateSource & { apply(state: UserChangedEvent): void };
  /** `user.changed` events. Without them a revoked token still works until its cache entry expires. */
  userChanges?: UserChangeFeed;
  /** Who owns a bulk order and where it stands; without it (no ORDERS_URL) no order room can be joined. */
  orders?: OrderLookup;
  /** `bulk.progress` events, relayed to order rooms. */
  progress?: ProgressFeed;
  /** Where changes made with a login-as token are sent (the admin audit); without it they are not recorded. */
  impersonationActions?: PublishImpersonationAction;
  /** Stamps the audit's events; tests freeze it to make many actions fall in one millisecond. */
  clock?: () => Date;
}

/**
 * The edge of Flatship (DESIGN.md §4): security headers, the /api proxy with
 * its token check and rate limits, socket.io, and the built SPA. Builds
 * everything from `deps` and opens nothing until it listens.
 */
export async function buildGateway(deps: GatewayDeps): Promise<ServiceApp> {
  const { config } = deps;
  const app = createServiceApp({
    name: 'gateway',
    logger: deps.logger,
    trustProxy: config.trustProxy,
    // The gateway's port is the public one: /metrics and /routez are served by its management listener only.
    management: 'separate',
    readiness: [createUpstreamReadiness({ ...config.upstreams, ...config.readyAlso }, config.upstreamReadyTimeoutMs)],
  });

  answerExpectContinue(app);
  await app.register(securityHeaders, { extraOrigins: config.cspExtraOrigins });
  await app.register(authPlugin, { publicKey: config.jwtPublicKey, tokenState: deps.tokenState });
  // Download links are checked here too (their tokens are keyed from the internal secret); orders issues them.
  await app.register(downloadTokenPlugin, { internalSecret: config.internalSecret, tokenState: deps.tokenState });
  // Before the proxy, so the hook covers every route it registers.
  if (deps.impersonationActions) recordImpersonatedChanges(app, deps.impersonationActions, deps.clock);
  await app.register(proxyPlugin, { upstreams: config.upstreams, rateLimit: config.rateLimit });
  await app.register(spaPlugin, { staticDir: config.staticDir });

  const realtime = attachRealtime(app.server, {
    verifyAccessToken: app.verifyAccessToken,
    log: app.log,
    orders: deps.orders,
  });
  // Before the HTTP server closes, or Fastify would wait on sockets that never end.
  app.addHook('preClose', async () => realtime.close());

  const feed = deps.userChanges;
  if (feed) {
    subscribeWhileOpen(app, feed, async (event) => {
      deps.tokenState.apply(event);
      await realtime.endRevokedSessions(event);
    });
  }

  const progress = deps.progress;
  if (progress) {
    subscribeWhileOpen(app, progress, (event) => realtime.relayProgress(event));
  }

  return app;
}
