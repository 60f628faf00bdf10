/**
 * The one place that says which service answers which public path
 * (DESIGN.md §4). Everything the gateway proxies is decided here, so a new
 * path or a moved service is a one-line change.
 */

import { BODY_LIMITS } from '@flatship/proto';

export const SERVICE_NAMES = ['auth', 'admin', 'orders', 'payments', 'services-pricing'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface RouteEntry {
  prefix: string;
  service: ServiceName;
}

export const ROUTE_TABLE: readonly RouteEntry[] = [
  { prefix: '/api/orders/price', service: 'services-pricing' },
  { prefix: '/api/auth/users', service: 'admin' },
  { prefix: '/api/auth/login-as-user', service: 'admin' },
  { prefix: '/api/auth/api/balance', service: 'admin' },
  { prefix: '/api/admin', service: 'admin' },
  { prefix: '/api/auth', service: 'auth' },
  { prefix: '/api/invite', service: 'auth' },
  { prefix: '/api/chatwoot', service: 'auth' },
  { prefix: '/api/orders', service: 'orders' },
  { prefix: '/api/payment', service: 'payments' },
  { prefix: '/api/userServices', service: 'services-pricing' },
  { prefix: '/api/defaultServices', service: 'services-pricing' },
  { prefix: '/api/rawServices', service: 'services-pricing' },
];

// Longest first, so a more specific prefix always wins whatever the order above.
const BY_SPECIFICITY = [...ROUTE_TABLE].sort((a, b) => b.prefix.length - a.prefix.length);

/**
 * The service that answers `path` (no query string), or null. A prefix
 * matches whole segments only: `/api/orders/price` covers
 * `/api/orders/price/v2/bulk` but not `/api/orders/prices`.
 */
export function resolveRoute(path: string): ServiceName | null {
  return routeEntryOf(path)?.service ?? null;
}

/** The entry of the table that answers `path` (its most specific prefix), or null. */
export function routeEntryOf(path: string): RouteEntry | null {
  for (const entry of BY_SPECIFICITY) {
    if (path === entry.prefix || path.startsWith(`${entry.prefix}/`)) return entry;
  }
  return null;
}

/** Calls a visitor makes before having a token (DESIGN.md §4, spec §7 of each document). */
export const PUBLIC_ROUTES: readonly { method: string; path: string }[] = [
  { method: 'POST', path: '/api/auth/login' },
  { method: 'POST', path: '/api/auth/register' },
  { method: 'POST', path: '/api/auth/forgot-password' },
  { method: 'POST', path: '/api/auth/reset-password' },
  { method: 'GET', path: '/api/auth/client-config' },
  { method: 'GET', path: '/api/orders/file/template' },
  { method: 'POST', path: '/api/payment/webhook/btcpay' },
  // EasyPost's tracker events: signed with EASYPOST_WEBHOOK_SECRET, checked by orders.
  { method: 'POST', path: '/api/orders/webhook/easypost' },
  { method: 'GET', path: '/api/payment/top-up/guest' },
  // The referral bonus terms: the register page states them to a visitor who came with an invite link.
  { method: 'GET', path: '/api/payment/referral-bonus' },
];

export function isPublicRoute(method: string, path: string): boolean {
  // HEAD is a GET without a body; refusing it would only confuse link checkers.
  const m = method === 'HEAD' ? 'GET' : method;
  return PUBLIC_ROUTES.some((r) => r.method === m && r.path === path);
}

/**
 * GETs that change something, so an admin's use of them while signed in as a user is audited like any POST
 * (impersonation-audit.ts). Every other GET of every service only reads; a new GET with an effect belongs here.
 * A prefix matches whole segments, as in the route table; HEAD runs the same handler, so it counts too.
 */
export const EFFECTFUL_GETS: readonly { prefix: string; why: string }[] = [
  { prefix: '/api/payment/top-up', why: 'opens a BTCPay invoice and records it as a deposit' },
];

export function isEffectfulGet(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return EFFECTFUL_GETS.some((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));
}

/**
 * Calls that carry more (or, for login, less) than BODY_LIMITS.default. The
 * figures are the ones the owning service enforces, from proto; a prefix
 * matches whole segments, as in the route table.
 */
export const BODY_LIMIT_ROUTES: readonly { method: string; prefix: string; limit: number }[] = [
  { method: 'POST', prefix: '/api/auth/login', limit: BODY_LIMITS.login },
  { method: 'POST', prefix: '/api/auth/forgot-password', limit: BODY_LIMITS.login },
  { method: 'POST', prefix: '/api/auth/add-sku', limit: BODY_LIMITS.addSku },
  { method: 'POST', prefix: '/api/orders/bulk/process', limit: BODY_LIMITS.bulkProcess },
  { method: 'POST', prefix: '/api/orders/price/v2/bulk', limit: BODY_LIMITS.pricing },
  { method: 'POST', prefix: '/api/payment/webhook/btcpay', limit: BODY_LIMITS.btcpayWebhook },
];

/**
 * The largest body the gateway forwards for `method path` (the raw path, as
 * `pathOfUrl` returns it). A path spelled with escapes gets the default; the
 * service still applies its own limit to it.
 */
export function bodyLimitOf(method: string, path: string): number {
  const route = BODY_LIMIT_ROUTES.find(
    (r) => r.method === method && (path === r.prefix || path.startsWith(`${r.prefix}/`)),
  );
  return route ? route.limit : BODY_LIMITS.default;
}

/**
 * The path part of a raw request URL, or null when it could be read two ways:
 * dot segments, empty segments, backslashes or bad escapes would let the
 * gateway and a service (or the URL parser in between) disagree about which
 * route was meant.
 */
export function pathOfUrl(url: string): string | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.startsWith('/') || path.includes('\\') || path.includes('//')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  for (const segment of decoded.split(/[/\\]/).slice(1)) {
    if (segment === '.' || segment === '..') return null;
  }
  return path;
}
