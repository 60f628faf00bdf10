import { ConfigError, loadConfig } from '@flatship/kit';
import { describe, expect, test } from 'vitest';
import { btcpaySettingsOf, PaymentsConfigSchema } from '../src/config';
import { parseDepositAmount } from '../src/domain/deposit-amount';
import { isValidWebhookSignature } from '../src/domain/verify-webhook-signature';
import { signBody } from './fake-btcpay';

describe('parseDepositAmount', () => {
  test.each([
    ['12.5', 1250, false],
    ['12.50', 1250, false],
    ['0.019', 1, true],
    ['0.01', 1, false],
    ['0.009', 0, true],
    ['100', 10_000, false],
    ['0', 0, false],
    ['007.10', 710, false],
    ['19.99000', 1999, false],
    ['0.29', 29, false],
    ['1.005', 100, true],
    ['10000000000', 1_000_000_000_000, false],
  ])('"%s" is %i cents (rounded down: %s)', (amount, cents, truncated) => {
    expect(parseDepositAmount(amount)).toEqual({ ok: true, cents, truncated });
  });

  test.each(['', '-1', '1e3', '1.', '.5', '1,5', 'NaN', '12.5 USD', '10000000000.01', '99999999999999999999'])(
    '"%s" is not a usable amount',
    (amount) => {
      expect(parseDepositAmount(amount)).toEqual({ ok: false });
    },
  );
});

describe('isValidWebhookSignature', () => {
  const body = Buffer.from('{"a":1}');
  test('accepts the HMAC-SHA256 of the exact bytes, in either hex case', () => {
    const sig = signBody('{"a":1}', 's3cret');
    expect(isValidWebhookSignature(body, sig, 's3cret')).toBe(true);
    expect(isValidWebhookSignature(body, sig.toUpperCase().replace('SHA256=', 'sha256='), 's3cret')).toBe(true);
  });
  test('refuses a missing, truncated, foreign or differently-keyed signature', () => {
    const sig = signBody('{"a":1}', 's3cret');
    expect(isValidWebhookSignature(body, undefined, 's3cret')).toBe(false);
    expect(isValidWebhookSignature(body, sig.slice(0, -2), 's3cret')).toBe(false);
    expect(isValidWebhookSignature(body, sig.replace('sha256=', 'sha1='), 's3cret')).toBe(false);
    expect(isValidWebhookSignature(body, sig, 'other')).toBe(false);
    expect(isValidWebhookSignature(Buffer.from('{"a":2}'), sig, 's3cret')).toBe(false);
  });
});

describe('BTCPay configuration', () => {
  const base = {
    DATABASE_URL: 'postgres://x/y',
    JWT_PUBLIC_KEY: 'k'.repeat(50),
    INTERNAL_SECRET: 's'.repeat(20),
    AUTH_URL: 'http://127.0.0.1:4101',
  };
  const settingsOf = (env: Record<string, string>) =>
    btcpaySettingsOf(loadConfig(PaymentsConfigSchema, { ...base, ...env }));

  test('without BTCPAY_URL deposits are off and the other three are not needed', () => {
    expect(settingsOf({})).toBeNull();
    expect(loadConfig(PaymentsConfigSchema, base).DEPOSIT_RECONCILE_INTERVAL_MS).toBe(60_000);
  });

  test('with BTCPAY_URL every missing companion is named', () => {
    let error: unknown;
    try {
      settingsOf({ BTCPAY_URL: 'https://pay.example.com', BTCPAY_API_KEY: 'key' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'BTCPAY_STORE_ID is required when BTCPAY_URL is set',
      'BTCPAY_WEBHOOK_SECRET is required when BTCPAY_URL is set',
    ]);
  });

  test('a complete group gives the settings; a URL that is not http(s) is refused by name', () => {
    expect(
      settingsOf({
        BTCPAY_URL: 'https://pay.example.com',
        BTCPAY_STORE_ID: 'st',
        BTCPAY_API_KEY: 'key',
        BTCPAY_WEBHOOK_SECRET: 'whs',
      }),
    ).toEqual({ url: 'https://pay.example.com', storeId: 'st', apiKey: 'key', webhookSecret: 'whs' });
    expect(() => settingsOf({ BTCPAY_URL: 'ftp://pay' })).toThrow(/BTCPAY_URL/);
    expect(() => loadConfig(PaymentsConfigSchema, { ...base, DEPOSIT_RECONCILE_INTERVAL_MS: '-1' })).toThrow(
      /DEPOSIT_RECONCILE_INTERVAL_MS/,
    );
  });
});
