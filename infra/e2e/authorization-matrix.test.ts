import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadTokenKey, signDownloadToken } from '@flatship/kit';
import { beforeAll, describe, expect, test } from 'vitest';
import { bulkItems } from '../../services/orders/test/bulk-support';
import { REPO_ROOT } from '../src/paths';
import type { Secrets } from '../src/state';
import { readRunFile } from '../test/helpers';
import { type SharedStack, sharedStack } from './shared-stack';

/**
 * Who may call what: every route of the public API, called through the gateway as each kind of caller, against
 * one table. The table is held to the routes the services really serve (each lists them on /routez), so a new
 * route without a row fails here, and so does a row for a route that is gone.
 */

const hasStack = ['services/auth/src/main.ts', 'gateway/src/main.ts'].every((p) => existsSync(join(REPO_ROOT, p)));

/**
 * `impersonating`: an admin signed in as a plain user through Login As; the token is the user's, not an admin's.
 * The four after it hold a Login As token that has ended: its admin was demoted, blocked or deleted, or went back
 * to their own account. Each is refused everywhere but the public routes, like any session that has ended.
 */
const CALLERS = [
  'anonymous',
  'user',
  'friend',
  'admin',
  'blocked',
  'impersonating',
  'visitAdminDemoted',
  'visitAdminBlocked',
  'visitAdminDeleted',
  'visitEnded',
] as const;
type Caller = (typeof CALLERS)[number];
const ENDED_VISITS = ['visitAdminDemoted', 'visitAdminBlocked', 'visitAdminDeleted', 'visitEnded'] as const;
/**
 * 'ok': admitted (whatever the route then answers, short of a server error); a number: refused for who the caller
 * is, with exactly that status and an access code. A blocked user's sessions have ended: 401, like any revoked token.
 */
type Cell = 'ok' | 401 | 403;
const ACCESS_CODES = new Set([
  'AUTH_MISSING_TOKEN',
  'AUTH_INVALID_TOKEN',
  'AUTH_TOKEN_EXPIRED',
  'AUTH_TOKEN_REVOKED',
  'AUTH_ACCOUNT_BLOCKED',
  'FORBIDDEN',
]);
type Access = Record<Caller, Cell>;

// The kinds of access a route grants, and what each caller gets.
/** A Login As token that has ended is a session that has ended. */
const ENDED = { visitAdminDemoted: 401, visitAdminBlocked: 401, visitAdminDeleted: 401, visitEnded: 401 } as const;
const PUBLIC: Access = {
  anonymous: 'ok',
  user: 'ok',
  friend: 'ok',
  admin: 'ok',
  blocked: 'ok',
  impersonating: 'ok',
  visitAdminDemoted: 'ok',
  visitAdminBlocked: 'ok',
  visitAdminDeleted: 'ok',
  visitEnded: 'ok',
};
const SIGNED_IN: Access = {
  anonymous: 401,
  user: 'ok',
  friend: 'ok',
  admin: 'ok',
  blocked: 401,
  impersonating: 'ok',
  ...ENDED,
};
/** A path or body naming another user: only an admin may. */
const OTHERS: Access = {
  anonymous: 401,
  user: 403,
  friend: 403,
  admin: 'ok',
  blocked: 401,
  impersonating: 403,
  ...ENDED,
};
/** The Invites page: friends and admins (spec doc 1 §6). */
const FRIENDS: Access = {
  anonymous: 401,
  user: 403,
  friend: 'ok',
  admin: 'ok',
  blocked: 401,
  impersonating: 403,
  ...ENDED,
};
/** Guest top-ups: the spec's guest path exists, and asks everyone to sign in. */
const NOBODY: Access = {
  anonymous: 401,
  user: 401,
  friend: 401,
  admin: 401,
  blocked: 401,
  impersonating: 401,
  ...ENDED,
};
const ADMINS: Access = OTHERS;
/** Ending a Login As visit: with the Login As token, or the admin's own; a plain user has none to end. */
const VISIT_ENDERS: Access = { ...OTHERS, impersonating: 'ok' };

interface Ids {
  /** The caller's own id (a fresh id for an anonymous caller). */
  me: string;
  /** A user who is not the caller. */
  other: string;
  /** An id nothing has. */
  ghost: string;
}
interface Row {
  method: string;
  /** The route as the service declares it; `:name` parts are filled by `params`. */
  route: string;
  params?: (ids: Ids) => Record<string, string>;
  body?: (ids: Ids) => unknown;
  query?: string;
  access: Access;
}

const ADDRESS = {
  address_id: 'Matrix',
  name: 'Dana Seller',
  street: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US',
};
const labelFor = (userId: string) => ({
  user_id: userId,
  service_name: 'USPS Priority Mail',
  sender: {
    sender_name: 'Ada Sender',
    sender_address1: '1 Main St',
    sender_city: 'Austin',
    sender_state_province: 'TX',
    sender_zip_postal: '73301',
    sender_country: 'US',
  },
  receiver: {
    receiver_name: 'Bob Receiver',
    receiver_address1: '2 Side Ave',
    receiver_city: 'Los Angeles',
    receiver_state_province: 'CA',
    receiver_zip_postal: '90001',
    receiver_country: 'US',
  },
  package: { package_length: 10, package_width: 8, package_height: 4, package_weight: 2, package_weight_unit: 'LB' },
});
const SKU = { sku: 'MATRIX-1', maxQty: 1, length: 6, width: 4, height: 2, weight: 1 };
const ownAndOthers = (route: string, method: string, body?: (ids: Ids) => unknown, param = 'userId'): Row[] => [
  { method, route, params: (i) => ({ [param]: i.me }), body, access: SIGNED_IN },
  { method, route, params: (i) => ({ [param]: i.other }), body, access: OTHERS },
];

const TABLE: Row[] = [
  // auth: sign-in and the account
  {
    method: 'POST',
    route: '/api/auth/login',
    body: () => ({ email: 'nobody@example.com', password: 'x' }),
    access: PUBLIC,
  },
  { method: 'POST', route: '/api/auth/register', body: () => ({}), access: PUBLIC },
  { method: 'GET', route: '/api/auth/verify', access: SIGNED_IN },
  { method: 'PATCH', route: '/api/auth/account', body: () => ({ name: '' }), access: SIGNED_IN },
  // auth: address book and SKU presets
  ...ownAndOthers('/api/auth/get-address/:userId', 'GET'),
  ...ownAndOthers('/api/auth/save-address/:userId', 'POST', () => ({ ...ADDRESS, address_id: '' })),
  ...ownAndOthers('/api/auth/delete-address/:userId', 'POST', (i) => ({ id: i.ghost })),
  {
    method: 'POST',
    route: '/api/auth/update-address/:userId/:addressRecordId',
    params: (i) => ({ userId: i.me, addressRecordId: i.ghost }),
    body: () => ADDRESS,
    access: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/auth/update-address/:userId/:addressRecordId',
    params: (i) => ({ userId: i.other, addressRecordId: i.ghost }),
    body: () => ADDRESS,
    access: OTHERS,
  },
  ...ownAndOthers('/api/auth/get-sku/:userId', 'GET'),
  ...ownAndOthers('/api/auth/add-sku/:userId', 'POST', () => ({ parsedData: [] })),
  {
    method: 'POST',
    route: '/api/auth/update-sku/:userId/:skuId',
    params: (i) => ({ userId: i.me, skuId: i.ghost }),
    body: () => ({ skuData: SKU }),
    access: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/auth/update-sku/:userId/:skuId',
    params: (i) => ({ userId: i.other, skuId: i.ghost }),
    body: () => ({ skuData: SKU }),
    access: OTHERS,
  },
  // Whose SKU it is, is the SKU's business: an unknown id is simply not found for everyone signed in.
  { method: 'POST', route: '/api/auth/delete-sku/:skuId', params: (i) => ({ skuId: i.ghost }), access: SIGNED_IN },
  // invites
  {
    method: 'POST',
    route: '/api/invite/referral/apply',
    body: () => ({ referralCode: 'NO-SUCH-CODE' }),
    access: SIGNED_IN,
  },
  ...ownAndOthers('/api/invite/referral/:userId', 'GET'),
  { method: 'GET', route: '/api/invite/:userId', params: (i) => ({ userId: i.me }), access: FRIENDS },
  { method: 'GET', route: '/api/invite/:userId', params: (i) => ({ userId: i.other }), access: OTHERS },
  // admin: user management (ids nobody has, so an admitted call changes nothing)
  { method: 'GET', route: '/api/auth/users', query: 'limit=1', access: ADMINS },
  {
    method: 'POST',
    route: '/api/auth/users/details/:id',
    params: (i) => ({ id: i.ghost }),
    body: () => ({ balance: 1 }),
    access: ADMINS,
  },
  {
    method: 'POST',
    route: '/api/auth/users/role/:id',
    params: (i) => ({ id: i.ghost }),
    body: () => ({ user_role: 'friend' }),
    access: ADMINS,
  },
  {
    method: 'POST',
    route: '/api/auth/users/activation/:id',
    params: (i) => ({ id: i.ghost }),
    body: () => ({ activation: 'block' }),
    access: ADMINS,
  },
  { method: 'DELETE', route: '/api/auth/users/:id', params: (i) => ({ id: i.ghost }), access: ADMINS },
  { method: 'POST', route: '/api/auth/login-as-user/:id', params: (i) => ({ id: i.ghost }), access: ADMINS },
  { method: 'GET', route: '/api/auth/api/balance', access: ADMINS },
  { method: 'POST', route: '/api/admin/carriers/check', access: ADMINS },
  { method: 'GET', route: '/api/admin/carriers/routes', access: ADMINS },
  // An empty list: admitted, then refused for what it lacks, so the stack's routes stay as they are.
  { method: 'PUT', route: '/api/admin/carriers/routes', body: () => ({ services: [] }), access: ADMINS },
  { method: 'GET', route: '/api/admin/audit', access: ADMINS },
  { method: 'GET', route: '/api/admin/dashboard', access: ADMINS },
  { method: 'GET', route: '/api/admin/user-volume-rankings', access: ADMINS },
  { method: 'GET', route: '/api/admin/referral-bonus', access: ADMINS },
  // An empty body: admitted, then refused for what it lacks, so the stack's settings stay as they are.
  { method: 'PUT', route: '/api/admin/referral-bonus', body: () => ({}), access: ADMINS },
  { method: 'POST', route: '/api/auth/users/:id/reset-link', params: (i) => ({ id: i.ghost }), access: ADMINS },
  // admin: order label management
  { method: 'GET', route: '/api/orders/admin/labels', access: ADMINS },
  { method: 'GET', route: '/api/orders/admin/bulk-orders', access: ADMINS },
  { method: 'POST', route: '/api/orders/admin/labels/:id/refund', params: (i) => ({ id: i.ghost }), access: ADMINS },
  // password reset and live chat
  { method: 'POST', route: '/api/auth/forgot-password', body: () => ({ email: 'nobody@example.com' }), access: PUBLIC },
  { method: 'POST', route: '/api/auth/reset-password', body: () => ({ token: 'x', password: 'y' }), access: PUBLIC },
  { method: 'GET', route: '/api/auth/client-config', access: PUBLIC },
  // Chat off (the default): 404 for whoever is signed in.
  { method: 'GET', route: '/api/chatwoot/identity', access: SIGNED_IN },
  // payments
  { method: 'POST', route: '/api/payment/webhook/btcpay', body: () => ({}), access: PUBLIC },
  // Reaches orders without a token, like the BTCPay webhook; orders then refuses anything not signed with the
  // EasyPost webhook secret (ORDERS_WEBHOOK_SIGNATURE, not an access refusal).
  { method: 'POST', route: '/api/orders/webhook/easypost', body: () => ({}), access: PUBLIC },
  { method: 'GET', route: '/api/payment/top-up/guest', access: NOBODY },
  ...ownAndOthers('/api/payment/top-up/:userId', 'GET'),
  ...ownAndOthers('/api/payment/recent-deposits/:userId', 'GET'),
  ...ownAndOthers('/api/payment/deposits/:userId', 'GET'),
  // The referral bonus terms: the register page states them to visitors who came with an invite link.
  { method: 'GET', route: '/api/payment/referral-bonus', access: PUBLIC },
  // services and prices
  ...ownAndOthers('/api/userServices/:userId/available', 'GET'),
  { method: 'GET', route: '/api/userServices/:userId', params: (i) => ({ userId: i.me }), access: ADMINS },
  {
    method: 'POST',
    route: '/api/userServices/:userId/initialize',
    params: (i) => ({ userId: i.ghost }),
    access: ADMINS,
  },
  {
    method: 'PUT',
    route: '/api/userServices/:userId/:serviceId/prices',
    params: (i) => ({ userId: i.ghost, serviceId: i.ghost }),
    body: () => ({ prices: [] }),
    access: ADMINS,
  },
  {
    method: 'PATCH',
    route: '/api/userServices/:userId/:serviceId/toggle',
    params: (i) => ({ userId: i.ghost, serviceId: i.ghost }),
    body: () => ({ enabled: true }),
    access: ADMINS,
  },
  { method: 'GET', route: '/api/rawServices', access: ADMINS },
  { method: 'GET', route: '/api/defaultServices', access: ADMINS },
  { method: 'POST', route: '/api/defaultServices/sync', access: ADMINS },
  {
    method: 'PATCH',
    route: '/api/defaultServices/:id/toggle',
    params: (i) => ({ id: i.ghost }),
    body: () => ({ enabled: true }),
    access: ADMINS,
  },
  {
    method: 'PUT',
    route: '/api/defaultServices/:id/prices',
    params: (i) => ({ id: i.ghost }),
    body: () => ({ prices: [] }),
    access: ADMINS,
  },
  {
    method: 'PUT',
    route: '/api/defaultServices/:id/name',
    params: (i) => ({ id: i.ghost }),
    body: () => ({ name: 'Renamed' }),
    access: ADMINS,
  },
  {
    method: 'POST',
    route: '/api/orders/price/v2/bulk',
    body: (i) => ({ userId: i.me, shipments: [] }),
    access: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/orders/price/v2/bulk',
    body: (i) => ({ userId: i.other, shipments: [] }),
    access: OTHERS,
  },
  // orders: single labels
  // Nobody here has a balance: an admitted purchase is refused for want of funds, and buys nothing.
  { method: 'POST', route: '/api/orders/v2', body: (i) => labelFor(i.me), access: SIGNED_IN },
  { method: 'POST', route: '/api/orders/v2', body: (i) => labelFor(i.other), access: OTHERS },
  ...ownAndOthers('/api/orders/recent/:userId', 'GET'),
  ...ownAndOthers('/api/orders/total/:userId', 'GET'),
  ...ownAndOthers('/api/orders/:userId', 'GET'),
  { method: 'GET', route: '/api/orders/file/template', access: PUBLIC },
  {
    method: 'GET',
    route: '/api/orders/download/v2/:pdfName',
    params: () => ({ pdfName: 'none.pdf' }),
    access: SIGNED_IN,
  },
  { method: 'GET', route: '/api/orders/download/v2/*', params: () => ({ '*': 'a/b.pdf' }), access: SIGNED_IN },
  // A link to a file nobody has: not found for whoever is signed in; whose file it is, is checked below and in orders.
  {
    method: 'POST',
    route: '/api/orders/download-token',
    body: (i) => ({ path: `/api/orders/download/v2/${i.ghost}.pdf` }),
    access: SIGNED_IN,
  },
  // orders: bulk
  { method: 'POST', route: '/api/orders/bulk/init', body: (i) => ({ userId: i.me }), access: SIGNED_IN },
  { method: 'POST', route: '/api/orders/bulk/init', body: (i) => ({ userId: i.other }), access: OTHERS },
  ...ownAndOthers('/api/orders/bulk/process/:userId', 'POST', (i) => ({ orderId: i.ghost, orderData: [] })),
  ...ownAndOthers('/api/orders/bulk/:userId', 'GET'),
  // The print setting (Account page), kept by orders.
  ...ownAndOthers('/api/orders/print-settings/:userId', 'GET'),
  ...ownAndOthers('/api/orders/print-settings/:userId', 'PUT', () => ({ labelFormat: 'pdf-4x6' })),
  // A bulk order id nobody has is not found for whoever is signed in; whose order it is, is checked in orders' tests.
  {
    method: 'POST',
    route: '/api/orders/bulk/retry-failed/:orderId',
    params: (i) => ({ orderId: i.ghost }),
    access: SIGNED_IN,
  },
  { method: 'POST', route: '/api/orders/bulk/fix/:orderId', params: (i) => ({ orderId: i.ghost }), access: SIGNED_IN },
  {
    method: 'POST',
    route: '/api/orders/bulk/force-recovery/:userId/:orderId',
    params: (i) => ({ userId: i.me, orderId: i.ghost }),
    access: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/orders/bulk/force-recovery/:userId/:orderId',
    params: (i) => ({ userId: i.other, orderId: i.ghost }),
    access: OTHERS,
  },
  { method: 'GET', route: '/api/orders/bulk/files/:orderId', params: (i) => ({ orderId: i.ghost }), access: SIGNED_IN },
  // Refunds: a label or order nobody has is not found for whoever is signed in; whose it is, is checked in orders' tests.
  {
    method: 'POST',
    route: '/api/orders/labels/:labelId/refund',
    params: (i) => ({ labelId: i.ghost }),
    access: SIGNED_IN,
  },
  // Tracking: a label nobody has is not found for whoever is signed in; whose it is, is checked in orders' tests.
  {
    method: 'GET',
    route: '/api/orders/labels/:labelId/tracking',
    params: (i) => ({ labelId: i.ghost }),
    access: SIGNED_IN,
  },
  {
    method: 'GET',
    route: '/api/orders/bulk/labels/:orderId',
    params: (i) => ({ orderId: i.ghost }),
    access: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/orders/bulk/refund/:orderId',
    params: (i) => ({ orderId: i.ghost }),
    body: () => ({}),
    access: SIGNED_IN,
  },
  // SCAN forms: a user's own list and today's form; an order or form nobody has is not found for whoever is signed in
  // (whose it is, is checked in orders' tests). With no labels, an admitted request makes nothing.
  ...ownAndOthers('/api/orders/scan-forms/:userId', 'GET'),
  ...ownAndOthers('/api/orders/scan-forms/today/:userId', 'POST', () => ({})),
  {
    method: 'POST',
    route: '/api/orders/scan-forms/bulk/:orderId',
    params: (i) => ({ orderId: i.ghost }),
    body: () => ({}),
    access: SIGNED_IN,
  },
  {
    method: 'GET',
    route: '/api/orders/download/scan-form/:formId',
    params: (i) => ({ formId: i.ghost }),
    access: SIGNED_IN,
  },
  {
    method: 'GET',
    route: '/api/orders/download/:type/:orderId',
    params: (i) => ({ type: 'pdf', orderId: i.ghost }),
    access: SIGNED_IN,
  },
  // Address checks: anyone signed in may check addresses (nothing is charged; orders rate-limits them per user).
  {
    method: 'POST',
    route: '/api/orders/verify-address',
    body: () => ({ address: { street1: '350 Fifth Avenue', city: 'New York', state: 'NY', zip: '10118' } }),
    access: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/orders/verify-addresses',
    body: () => ({ addresses: [{ street1: '350 Fifth Avenue', city: 'New York', state: 'NY', zip: '10118' }] }),
    access: SIGNED_IN,
  },
  // Last: it ends the Login As visits of whoever may call it (the admin's own visits, then the impersonating
  // caller's, of another admin), and rows after it would find those tokens ended.
  { method: 'POST', route: '/api/auth/login-as/end', access: VISIT_ENDERS },
];

const rowKey = (method: string, route: string) => `${method} ${route}`;

function pathOf(row: Row, ids: Ids): string {
  const params = row.params?.(ids) ?? {};
  const path = row.route.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    const value = params[name ?? '*'];
    if (value === undefined) throw new Error(`${rowKey(row.method, row.route)}: no value for ${whole}`);
    return name ? encodeURIComponent(value) : value;
  });
  return row.query ? `${path}?${row.query}` : path;
}

describe.skipIf(!hasStack)('authorisation matrix', () => {
  let stack: SharedStack;
  const tokens = {} as Record<Caller, string | null>;
  const idOf = {} as Record<Caller, string>;
  let served: string[] = [];
  let secrets: Secrets;
  let internal: (path: string, body?: unknown) => Promise<void>;
  let register: (name: string) => Promise<{ id: string; email: string; password: string }>;
  let login: (email: string, password: string) => Promise<string>;
  /** Every token and secret the tests below used: none may be in any log. */
  const used: { name: string; secret: string }[] = [];

  async function json(path: string, init: RequestInit & { token?: string | null } = {}) {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (init.token) headers.token = init.token;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${stack.url}${path}`, { ...init, headers });
    const isJson = res.headers.get('content-type')?.includes('application/json');
    if (!isJson) {
      await res.arrayBuffer();
      return { status: res.status, body: null };
    }
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    // The shared stack: its auth rate limit is raised for the hundreds of sign-ins and registrations below.
    stack = await sharedStack();
    const run = await readRunFile(stack.dataDir);
    secrets = JSON.parse(await readFile(join(stack.dataDir, 'secrets.json'), 'utf8')) as Secrets;
    internal = async (path: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${run.services.auth!.port}${path}`, {
        method: body === undefined ? 'DELETE' : 'POST',
        headers: {
          'x-internal-secret': secrets.internalSecret,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    };
    register = async (name: string) => {
      const email = `${name}-${randomUUID()}@example.com`;
      const password = 'Matrix-Pass-2026';
      const res = await json('/api/auth/register', {
        method: 'POST',
        body: JSON.stringify({ name, email, password, confirmPassword: password }),
      });
      if (res.status !== 201) throw new Error(`register ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: String((res.body?.user as { _id?: string } | undefined)?._id), email, password };
    };
    login = async (email: string, password: string) => {
      const res = await json('/api/auth/login', { method: 'POST', body: JSON.stringify({ email, password }) });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
      return String(res.body?.token);
    };

    const [user, friend, blocked] = [await register('user'), await register('friend'), await register('blocked')];
    await internal(`/internal/users/${friend.id}/role`, { user_role: 'friend' });
    tokens.user = await login(user.email, user.password);
    tokens.friend = await login(friend.email, friend.password);
    tokens.blocked = await login(blocked.email, blocked.password);
    await internal(`/internal/users/${blocked.id}/activation`, { activation: 'block' });
    // An admin of the matrix's own: the rows it calls end its Login As visits (the last row), which must not end
    // the visits of the stack's admin in another file.
    const admin = await register('admin');
    await internal(`/internal/users/${admin.id}/role`, { user_role: 'admin' });
    tokens.admin = await login(admin.email, admin.password);
    tokens.anonymous = null;
    const helped = await register('helped');
    /** A Login As token for `helped`, from an admin of its own (ending one admin's visits ends only theirs). */
    const visit = async (name: string) => {
      const admin = await register(name);
      await internal(`/internal/users/${admin.id}/role`, { user_role: 'admin' });
      const token = await login(admin.email, admin.password);
      const loginAs = await json(`/api/auth/login-as-user/${helped.id}`, { method: 'POST', token });
      if (loginAs.status !== 200) throw new Error(`login-as: ${loginAs.status} ${JSON.stringify(loginAs.body)}`);
      return { adminId: admin.id, token: String(loginAs.body?.token) };
    };
    tokens.impersonating = (await visit('visitor')).token;
    const demoted = await visit('demoted');
    const blockedAdmin = await visit('blocked-admin');
    const deleted = await visit('deleted');
    const ended = await visit('ended');
    Object.assign(tokens, {
      visitAdminDemoted: demoted.token,
      visitAdminBlocked: blockedAdmin.token,
      visitAdminDeleted: deleted.token,
      visitEnded: ended.token,
    });
    for (const { token } of [demoted, blockedAdmin, deleted, ended]) {
      expect((await json('/api/auth/verify', { token })).status).toBe(200);
    }
    await internal(`/internal/users/${demoted.adminId}/role`, { user_role: 'user' });
    await internal(`/internal/users/${blockedAdmin.adminId}/activation`, { activation: 'block' });
    await internal(`/internal/users/${deleted.adminId}`);
    // "Back to admin" in the web app: sent with the Login As token itself.
    const end = await json('/api/auth/login-as/end', { method: 'POST', token: ended.token });
    if (end.status !== 200) throw new Error(`login-as end: ${end.status} ${JSON.stringify(end.body)}`);
    // Every service hears of it through user.changed; wait until each refuses every ended token once.
    const perService = [
      '/api/auth/verify',
      `/api/orders/total/${helped.id}`,
      `/api/payment/deposits/${helped.id}`,
      `/api/userServices/${helped.id}/available`,
    ];
    const deadline = Date.now() + 10_000;
    for (const caller of ENDED_VISITS) {
      for (const path of perService) {
        while ((await json(path, { token: tokens[caller] })).status !== 401 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }
    Object.assign(idOf, {
      anonymous: randomUUID(),
      user: user.id,
      friend: friend.id,
      blocked: blocked.id,
      impersonating: helped.id,
      visitAdminDemoted: helped.id,
      visitAdminBlocked: helped.id,
      visitAdminDeleted: helped.id,
      visitEnded: helped.id,
      admin: admin.id,
    });

    const listing = new Set<string>();
    for (const [name, { port }] of Object.entries(run.services)) {
      // The simulator stands in for BTCPay Server, a system we do not run in production: its API is not ours.
      // The gateway's own routes are the proxy's prefixes: what answers is the service behind it.
      if (name === 'btcpay' || name === 'gateway') continue;
      const res = await fetch(`http://127.0.0.1:${port}/routez`).catch(() => null);
      if (!res?.ok) continue;
      const { routes } = (await res.json()) as { routes: { method: string; url: string }[] };
      served.push(...routes.map((r) => rowKey(r.method, r.url)));
      if (routes.length > 0) listing.add(name);
    }
    // The services behind the gateway's route table; a stack where one did not answer proves nothing.
    expect([...listing].sort()).toEqual(['admin', 'auth', 'orders', 'payments', 'services-pricing']);
    served = [...new Set(served)].sort();
  }, 180_000);

  test('every public route has a row, and every row is a route that exists', () => {
    const inTable = new Set(TABLE.map((r) => rowKey(r.method, r.route)));
    expect(
      served.filter((k) => !inTable.has(k)),
      'routes without a row in the table',
    ).toEqual([]);
    expect([...inTable].filter((k) => !served.includes(k)).sort(), 'rows for routes nobody serves').toEqual([]);
  });

  test('each caller gets what the table says', async () => {
    const wrong: string[] = [];
    for (const row of TABLE) {
      for (const caller of CALLERS) {
        const other = caller === 'user' ? idOf.friend : idOf.user;
        const path = pathOf(row, { me: idOf[caller], other, ghost: randomUUID() });
        const body = row.body?.({ me: idOf[caller], other, ghost: randomUUID() });
        const hasBody = !['GET', 'DELETE'].includes(row.method);
        const res = await json(path, {
          method: row.method,
          token: tokens[caller],
          ...(hasBody ? { body: JSON.stringify(body ?? {}) } : {}),
        });
        const expected = row.access[caller];
        const routeMissing = res.status === 404 && String(res.body?.message ?? '').startsWith('Route ');
        const refused = [401, 403].includes(res.status) && ACCESS_CODES.has(String(res.body?.code));
        const ok =
          expected === 'ok' ? !refused && res.status < 500 && !routeMissing : refused && res.status === expected;
        if (!ok) {
          wrong.push(
            `${row.method} ${path} as ${caller}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  test('a Login As visit gets exactly what its customer gets: their own labels, orders, forms and presets, and never another customer’s', async () => {
    /** A customer with money, signed in, holding one of every resource a customer route names by id. */
    async function customerWithEverything(name: string) {
      const who = await register(name);
      const funded = await json(`/api/auth/users/details/${who.id}`, {
        method: 'POST',
        token: tokens.admin,
        body: JSON.stringify({ balance: 100 }),
      });
      if (funded.status !== 200) throw new Error(`funding: ${funded.status} ${JSON.stringify(funded.body)}`);
      const token = await login(who.email, who.password);
      const call = async (path: string, body?: unknown) => {
        const res = await json(path, {
          method: body === undefined ? 'GET' : 'POST',
          token,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body as Record<string, unknown> & { data: Record<string, string> };
      };
      const label = (await call('/api/orders/v2', labelFor(who.id))).data;
      const orderId = (await call('/api/orders/bulk/init', { userId: who.id })).data.orderId as string;
      await call(`/api/orders/bulk/process/${who.id}`, { orderId, orderData: bulkItems(1), fileName: 'matrix.csv' });
      await expect
        .poll(
          async () =>
            ((await call(`/api/orders/bulk/${who.id}`)).bulkOrders as { _id: string; status: string }[]).find(
              (o) => o._id === orderId,
            )?.status,
          { timeout: 60_000, interval: 250 },
        )
        .toBe('completed');
      const formId = ((await call(`/api/orders/scan-forms/bulk/${orderId}`, {})).forms as { _id: string }[])[0]?._id;
      const address = (await call(`/api/auth/save-address/${who.id}`, { ...ADDRESS, address_id: name })).address as {
        _id: string;
      };
      const skus = (await call(`/api/auth/add-sku/${who.id}`, { parsedData: [{ ...SKU, sku: `${name}-1` }] }))
        .SkuData as { _id: string }[];
      return {
        id: who.id,
        token,
        labelId: String(label.orderId),
        pdfName: String(label.pdfName),
        orderId,
        formId: String(formId),
        addressId: address._id,
        skuId: String(skus[0]?._id),
      };
    }
    type Customer = Awaited<ReturnType<typeof customerWithEverything>>;
    const [visited, other] = [await customerWithEverything('visited'), await customerWithEverything('other')];
    // The visit as the admin UI makes it: an admin of its own signs in as the customer.
    const admin = await register('visiting-admin');
    await internal(`/internal/users/${admin.id}/role`, { user_role: 'admin' });
    const adminToken = await login(admin.email, admin.password);
    const loginAs = await json(`/api/auth/login-as-user/${visited.id}`, { method: 'POST', token: adminToken });
    expect(loginAs.status, JSON.stringify(loginAs.body)).toBe(200);
    const visit = String(loginAs.body?.token);
    used.push({ name: 'the visiting admin', secret: adminToken }, { name: 'the visit', secret: visit });

    /** Each customer route that names a resource, on `of`'s resource, called by the visited customer (`me`). */
    const calls: { name: string; method: string; path: (of: Customer) => string; body?: (of: Customer) => unknown }[] =
      [
        { name: 'tracking', method: 'GET', path: (o) => `/api/orders/labels/${o.labelId}/tracking` },
        {
          name: 'download link',
          method: 'POST',
          path: () => '/api/orders/download-token',
          body: (o) => ({ path: `/api/orders/download/v2/${o.pdfName}` }),
        },
        { name: 'batch labels', method: 'GET', path: (o) => `/api/orders/bulk/labels/${o.orderId}` },
        { name: 'batch files', method: 'GET', path: (o) => `/api/orders/bulk/files/${o.orderId}` },
        { name: 'retry failed', method: 'POST', path: (o) => `/api/orders/bulk/retry-failed/${o.orderId}` },
        { name: 'fix', method: 'POST', path: (o) => `/api/orders/bulk/fix/${o.orderId}` },
        {
          name: 'force recovery',
          method: 'POST',
          path: (o) => `/api/orders/bulk/force-recovery/${visited.id}/${o.orderId}`,
        },
        {
          name: 'batch SCAN form',
          method: 'POST',
          path: (o) => `/api/orders/scan-forms/bulk/${o.orderId}`,
          body: () => ({}),
        },
        {
          name: 'SCAN form link',
          method: 'POST',
          path: () => '/api/orders/download-token',
          body: (o) => ({ path: `/api/orders/download/scan-form/${o.formId}` }),
        },
        {
          name: 'update address',
          method: 'POST',
          path: (o) => `/api/auth/update-address/${visited.id}/${o.addressId}`,
          body: () => ADDRESS,
        },
        {
          name: 'update SKU',
          method: 'POST',
          path: (o) => `/api/auth/update-sku/${visited.id}/${o.skuId}`,
          body: () => ({ skuData: SKU }),
        },
        // Last, as they change what they name.
        { name: 'batch refund', method: 'POST', path: (o) => `/api/orders/bulk/refund/${o.orderId}`, body: () => ({}) },
        { name: 'label refund', method: 'POST', path: (o) => `/api/orders/labels/${o.labelId}/refund` },
        { name: 'delete SKU', method: 'POST', path: (o) => `/api/auth/delete-sku/${o.skuId}` },
      ];
    const wrong: string[] = [];
    for (const c of calls) {
      const as = (token: string, of: Customer) =>
        json(c.path(of), {
          method: c.method,
          token,
          ...(c.method === 'GET' ? {} : { body: JSON.stringify(c.body?.(of) ?? {}) }),
        });
      // The visit first: were it let through where the customer is not, it would act before anything is refused.
      const [visitOther, ownOther] = [await as(visit, other), await as(visited.token, other)];
      if (![403, 404].includes(visitOther.status) || visitOther.status !== ownOther.status) {
        wrong.push(
          `${c.name} on another customer's: the visit got ${visitOther.status} ${JSON.stringify(visitOther.body)}, the customer ${ownOther.status}`,
        );
      }
      const visitOwn = await as(visit, visited);
      if ([401, 403, 404].includes(visitOwn.status) || visitOwn.status >= 500) {
        wrong.push(
          `${c.name} on the customer's own: the visit got ${visitOwn.status} ${JSON.stringify(visitOwn.body)}`,
        );
      }
    }
    expect(wrong).toEqual([]);
    // Nothing of the other customer's moved: every label still bought, none refunded.
    const theirs = await json(`/api/orders/bulk/labels/${other.orderId}`, { token: other.token });
    expect(((theirs.body?.labels ?? []) as { refundStatus: string | null }[]).map((l) => l.refundStatus)).toEqual([
      null,
    ]);
    const single = await json(`/api/orders/${other.id}`, { token: other.token });
    expect(
      ((single.body?.orders ?? []) as { _id: string; status: string; refundStatus: string | null }[]).find(
        (o) => o._id === other.labelId,
      ),
    ).toMatchObject({ status: 'completed', refundStatus: null });
  }, 180_000);

  describe('download links and tokens in URLs', () => {
    const key = () => downloadTokenKey(secrets.internalSecret);
    /** A customer with a balance, signed in, and the path of a label PDF they bought. */
    async function customerWithLabel(name: string) {
      const who = await register(name);
      const funded = await json(`/api/auth/users/details/${who.id}`, {
        method: 'POST',
        token: tokens.admin,
        body: JSON.stringify({ balance: 50 }),
      });
      if (funded.status !== 200) throw new Error(`funding: ${funded.status} ${JSON.stringify(funded.body)}`);
      const token = await login(who.email, who.password);
      const buy = async () => {
        const res = await json('/api/orders/v2', { method: 'POST', token, body: JSON.stringify(labelFor(who.id)) });
        const pdfName = (res.body?.data as { pdfName?: string } | undefined)?.pdfName;
        if (res.status !== 201 || !pdfName) throw new Error(`label: ${res.status} ${JSON.stringify(res.body)}`);
        return `/api/orders/download/v2/${pdfName}`;
      };
      used.push({ name: `${name}'s session`, secret: token });
      return { ...who, token, buy };
    }
    async function linkFor(token: string | null, path: string) {
      return json('/api/orders/download-token', { method: 'POST', token, body: JSON.stringify({ path }) });
    }
    const open = async (url: string) => {
      const res = await fetch(`${stack.url}${url}`);
      const type = res.headers.get('content-type') ?? '';
      const body = type.includes('json') ? ((await res.json()) as { code?: string }) : null;
      if (!body) await res.arrayBuffer();
      return { status: res.status, type, code: body?.code };
    };

    test('a link opens its own file for a few minutes and nothing else; a session token in a URL opens nothing', async () => {
      const dana = await customerWithLabel('dana');
      const [fileA, fileB] = [await dana.buy(), await dana.buy()];
      const link = await linkFor(dana.token, fileA);
      expect(link.status).toBe(200);
      const { url, token: linkToken, expiresAt } = link.body as { url: string; token: string; expiresAt: string };
      used.push({ name: 'a download token', secret: linkToken });
      expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000 + 1000);

      expect(await open(url)).toMatchObject({ status: 200, type: 'application/pdf' });
      // File B with file A's token, and any other route.
      expect(await open(`${fileB}?token=${linkToken}`)).toMatchObject({ status: 401, code: 'DOWNLOAD_LINK_INVALID' });
      expect(await open(`/api/orders/${dana.id}?token=${linkToken}`)).toMatchObject({ status: 401 });
      // The session token where a link's belongs, however it is spelled.
      for (const query of [`token=${dana.token}`, `%74oken=${dana.token}`, `token=x&token=${dana.token}`]) {
        expect(await open(`${fileA}?${query}`), query).toMatchObject({ status: 401 });
      }
      // A session token in the query of any other route: refused before any service sees it.
      const asAdmin = await fetch(`${stack.url}/api/auth/users/details/${dana.id}?token=${tokens.admin}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ balance: 1000 }),
      });
      expect(asAdmin.status).toBe(401);
      expect(await open(`/api/orders/recent/${dana.id}?token=${dana.token}`)).toMatchObject({ status: 401 });

      // Expired, or made with any other key: refused.
      const claims = { sub: dana.id, ver: 1, path: fileA };
      const expired = signDownloadToken(key(), claims, 5 * 60_000, Date.now() - 6 * 60_000).token;
      expect(await open(`${fileA}?token=${expired}`)).toMatchObject({ status: 401, code: 'DOWNLOAD_LINK_EXPIRED' });
      const foreign = signDownloadToken(downloadTokenKey('some-other-secret-0123456789'), claims, 60_000).token;
      expect(await open(`${fileA}?token=${foreign}`)).toMatchObject({ status: 401, code: 'DOWNLOAD_LINK_INVALID' });
      used.push({ name: 'an expired download token', secret: expired }, { name: 'a forged one', secret: foreign });

      // Someone else's file: no link for another customer; an admin gets one.
      expect((await linkFor(tokens.user, fileA)).status).toBe(404);
      const adminLink = await linkFor(tokens.admin, fileA);
      expect(await open((adminLink.body as { url: string }).url)).toMatchObject({ status: 200 });
      used.push({ name: "an admin's download token", secret: String(adminLink.body?.token) });
    }, 60_000);

    test("a blocked customer's link opens nothing", async () => {
      const erin = await customerWithLabel('erin');
      const link = await linkFor(erin.token, await erin.buy());
      const url = (link.body as { url: string }).url;
      used.push({ name: "erin's download token", secret: String(link.body?.token) });
      expect((await open(url)).status).toBe(200);
      await internal(`/internal/users/${erin.id}/activation`, { activation: 'block' });
      // The block reaches the gateway and orders through user.changed; wait for it, not for a time.
      await expect.poll(async () => (await open(url)).status, { timeout: 15_000 }).not.toBe(200);
      // Blocking ends the customer's sessions (401, as for any revoked token) and so their links.
      expect(await open(url)).toMatchObject({ status: 401, code: 'AUTH_TOKEN_REVOKED' });
    }, 60_000);

    test('no token or secret of any kind reached a log line of any service or the gateway', async () => {
      // Reset links too: one made by an admin and opened (the web page's URL carries it).
      const resetFor = await json(`/api/auth/users/${idOf.user}/reset-link`, { method: 'POST', token: tokens.admin });
      const resetLink = new URL(String(resetFor.body?.link));
      const resetToken = resetLink.searchParams.get('token') ?? '';
      expect(resetToken.length).toBeGreaterThan(20);
      await fetch(`${stack.url}/reset-password?token=${resetToken}`).then((r) => r.arrayBuffer());
      await json('/api/auth/forgot-password', { method: 'POST', body: JSON.stringify({ email: 'dana@example.com' }) });

      // Every process writes its lines in order: once a last request is in the gateway's and orders' logs, so is
      // everything before it.
      const marker = randomUUID();
      await json(`/api/orders/download/v2/${marker}.pdf`, { token: tokens.user });
      const logsDir = join(stack.dataDir, 'logs');
      const readLogs = async () =>
        Object.fromEntries(
          await Promise.all(
            (await readdir(logsDir)).map(async (f) => [f, await readFile(join(logsDir, f), 'utf8')] as const),
          ),
        );
      await expect
        .poll(
          async () => {
            const logs = await readLogs();
            return [logs['gateway.log'], logs['orders.log']].every((l) => l?.includes(marker));
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      const logs = await readLogs();
      expect(Object.keys(logs)).toEqual(expect.arrayContaining(['gateway.log', 'auth.log', 'orders.log', 'admin.log']));

      const secretsToFind = [
        ...CALLERS.filter((c) => tokens[c]).map((c) => ({ name: `${c}'s session token`, secret: String(tokens[c]) })),
        ...used,
        { name: 'a reset token', secret: resetToken },
        { name: 'the internal secret', secret: secrets.internalSecret },
        { name: 'the database password', secret: secrets.pgPassword },
        { name: 'the BTCPay API key', secret: secrets.btcpayApiKey },
        { name: 'the BTCPay webhook secret', secret: secrets.btcpayWebhookSecret },
      ];
      const found: string[] = [];
      for (const [file, text] of Object.entries(logs)) {
        for (const { name, secret } of secretsToFind) {
          // A JWT's signature is what makes it usable; any 16 characters of it would be a leak.
          const part = secret.includes('.') ? (secret.split('.')[2] ?? secret).slice(0, 16) : secret;
          if (text.includes(part)) found.push(`${name} in ${file}`);
        }
        if (/eyJ[\w-]{10,}\.eyJ[\w-]{10,}/.test(text)) found.push(`a JWT in ${file}`);
      }
      expect(found).toEqual([]);
    }, 60_000);
  });
});
