import { BODY_LIMITS } from '@flatship/proto';
import { describe, expect, test } from 'vitest';
import { bodyLimitOf, isPublicRoute, pathOfUrl, ROUTE_TABLE, resolveRoute } from '../src/route-table';

describe('resolveRoute', () => {
  test.each([
    ['/api/orders/price', 'services-pricing'],
    ['/api/orders/price/v2/bulk', 'services-pricing'],
    ['/api/auth/users', 'admin'],
    ['/api/auth/users/role/u1', 'admin'],
    ['/api/auth/login-as-user/u1', 'admin'],
    ['/api/auth/api/balance', 'admin'],
    ['/api/admin/user-volume-rankings', 'admin'],
    ['/api/auth/login', 'auth'],
    ['/api/auth/verify', 'auth'],
    ['/api/auth/get-address/u1', 'auth'],
    ['/api/auth/account', 'auth'],
    ['/api/invite/referral/apply', 'auth'],
    ['/api/invite/u1', 'auth'],
    ['/api/chatwoot/identity', 'auth'],
    ['/api/orders/v2', 'orders'],
    ['/api/orders/bulk/process/u1', 'orders'],
    ['/api/orders/download/v2/a.pdf', 'orders'],
    ['/api/orders/u1', 'orders'],
    ['/api/payment/top-up/guest', 'payments'],
    ['/api/payment/webhook/btcpay', 'payments'],
    ['/api/userServices/u1/available', 'services-pricing'],
    ['/api/defaultServices/sync', 'services-pricing'],
    ['/api/rawServices', 'services-pricing'],
  ])('%s → %s', (path, service) => {
    expect(resolveRoute(path)).toBe(service);
  });

  test('every prefix in the table resolves to its own service, whatever else shares its start', () => {
    for (const { prefix, service } of ROUTE_TABLE) {
      expect(resolveRoute(prefix)).toBe(service);
      expect(resolveRoute(`${prefix}/anything`)).toBe(service);
    }
  });

  test('prefixes match whole segments only', () => {
    expect(resolveRoute('/api/orders/prices')).toBe('orders');
    expect(resolveRoute('/api/auth/usersx')).toBe('auth');
    expect(resolveRoute('/api/authx')).toBeNull();
    expect(resolveRoute('/api/paymentx/1')).toBeNull();
  });

  test('paths outside the table resolve to nothing', () => {
    expect(resolveRoute('/api')).toBeNull();
    expect(resolveRoute('/api/')).toBeNull();
    expect(resolveRoute('/api/unknown')).toBeNull();
    expect(resolveRoute('/internal/users/1/token-state')).toBeNull();
    expect(resolveRoute('/main/dashboard')).toBeNull();
    expect(resolveRoute('/API/auth/login')).toBeNull();
  });
});

describe('isPublicRoute', () => {
  test.each([
    ['POST', '/api/auth/login'],
    ['POST', '/api/auth/register'],
    ['GET', '/api/orders/file/template'],
    ['HEAD', '/api/orders/file/template'],
    ['POST', '/api/payment/webhook/btcpay'],
    ['GET', '/api/payment/top-up/guest'],
    // The referral bonus terms: the register page states them to a visitor who came with an invite link.
    ['GET', '/api/payment/referral-bonus'],
    ['POST', '/api/auth/forgot-password'],
    ['POST', '/api/auth/reset-password'],
    ['GET', '/api/auth/client-config'],
  ])('%s %s needs no token', (method, path) => {
    expect(isPublicRoute(method, path)).toBe(true);
  });

  test.each([
    ['GET', '/api/auth/login'],
    ['GET', '/api/auth/verify'],
    ['POST', '/api/auth/login/extra'],
    ['GET', '/api/payment/top-up/u1'],
    ['POST', '/api/orders/file/template'],
    ['POST', '/api/invite/referral/apply'],
    ['GET', '/api/chatwoot/identity'],
    ['POST', '/api/auth/users/u1/reset-link'],
  ])('%s %s needs a token', (method, path) => {
    expect(isPublicRoute(method, path)).toBe(false);
  });
});

describe('pathOfUrl', () => {
  test('keeps the path and drops the query', () => {
    expect(pathOfUrl('/api/orders/download/v2/a.pdf?token=abc')).toBe('/api/orders/download/v2/a.pdf');
    expect(pathOfUrl('/api/orders/[...slug]')).toBe('/api/orders/[...slug]');
  });

  test.each([
    '/api/auth/../admin/x',
    '/api/auth/%2e%2e/users',
    '/api/auth/%2E%2E%2Fusers',
    '/api/auth/./users',
    '/api/auth\\..\\admin',
    '/api//auth/login',
    '/api/auth/%zz',
    'api/auth',
  ])('refuses %s, which a service could read differently', (url) => {
    expect(pathOfUrl(url)).toBeNull();
  });
});

describe('bodyLimitOf', () => {
  test('only the calls that carry a bulk order get the large limit', () => {
    expect(bodyLimitOf('POST', '/api/orders/price/v2/bulk')).toBe(BODY_LIMITS.pricing);
    expect(bodyLimitOf('POST', '/api/orders/bulk/process/u1')).toBe(BODY_LIMITS.bulkProcess);
    expect(bodyLimitOf('POST', '/api/auth/add-sku/u1')).toBe(BODY_LIMITS.addSku);
    expect(bodyLimitOf('PUT', '/api/defaultServices/d1/prices')).toBe(BODY_LIMITS.default);
    expect(bodyLimitOf('POST', '/api/defaultServices/sync')).toBe(BODY_LIMITS.default);
    expect(bodyLimitOf('GET', '/api/orders/price/v2/bulk')).toBe(BODY_LIMITS.default);
  });
});
