import { ConfigError, loadConfig } from '@flatship/kit';
import { generateTokenKeys } from '@flatship/kit/testing';
import { describe, expect, test } from 'vitest';
import { AuthConfigSchema, assertMatchingKeys, liveChatOf } from '../src/config';

const keys = generateTokenKeys();
const env = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/flatship',
  JWT_PUBLIC_KEY: keys.publicKey,
  JWT_PRIVATE_KEY: keys.privateKey,
  INTERNAL_SECRET: 'a-long-enough-internal-secret',
};

function problemsOf(over: Record<string, string | undefined>): string[] {
  try {
    loadConfig(AuthConfigSchema, { ...env, ...over });
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('auth configuration', () => {
  test('defaults: port 4101, tokens for 7 days, no admin bootstrap, no payments', () => {
    const config = loadConfig(AuthConfigSchema, env);
    expect(config).toMatchObject({ PORT: 4101, JWT_TTL: '7d', LOGIN_AS_TTL: '1h', HOST: '127.0.0.1' });
    expect(config.ADMIN_EMAIL).toBeUndefined();
    expect(config.ADMIN_PASSWORD).toBeUndefined();
    expect(config.PAYMENTS_URL).toBeUndefined();
  });

  test('a missing private key is named', () => {
    expect(problemsOf({ JWT_PRIVATE_KEY: undefined })).toContain('JWT_PRIVATE_KEY is required but not set');
  });

  test('a token lifetime without a unit, a short admin password and a bad payments URL are each named', () => {
    const problems = problemsOf({
      JWT_TTL: '3600',
      LOGIN_AS_TTL: 'an hour',
      ADMIN_PASSWORD: 'short',
      PAYMENTS_URL: 'payments:4102',
    });
    expect(problems.some((p) => p.startsWith('JWT_TTL="3600" is invalid'))).toBe(true);
    expect(problems.some((p) => p.startsWith('LOGIN_AS_TTL="an hour" is invalid'))).toBe(true);
    expect(problems.some((p) => p.startsWith('ADMIN_PASSWORD (value not shown) is invalid'))).toBe(true);
    expect(problems.some((p) => p.startsWith('PAYMENTS_URL="payments:4102" is invalid'))).toBe(true);
  });
});

describe('password reset and live chat settings', () => {
  test('reset links point at the gateway of the local stack unless PUBLIC_URL says otherwise; no SMTP by default', () => {
    const config = loadConfig(AuthConfigSchema, env);
    expect(config.PUBLIC_URL).toBe('http://localhost:8080');
    expect(config.SMTP_URL).toBeUndefined();
    expect(loadConfig(AuthConfigSchema, { ...env, PUBLIC_URL: 'https://ship.example.com' }).PUBLIC_URL).toBe(
      'https://ship.example.com',
    );
  });

  test('a PUBLIC_URL with a path and an SMTP_URL of another scheme are each named', () => {
    const problems = problemsOf({ PUBLIC_URL: 'https://ship.example.com/app', SMTP_URL: 'http://mail:25' });
    expect(problems.some((p) => p.startsWith('PUBLIC_URL="https://ship.example.com/app" is invalid'))).toBe(true);
    expect(problems.some((p) => p.startsWith('SMTP_URL="http://mail:25" is invalid'))).toBe(true);
  });

  test('live chat is off without Chatwoot settings, on with all three, and refused with only some', () => {
    expect(liveChatOf({})).toEqual({ widget: null, hmacToken: null });
    expect(
      liveChatOf({
        CHATWOOT_BASE_URL: 'https://chat.example.com/',
        CHATWOOT_WEBSITE_TOKEN: 'w',
        CHATWOOT_HMAC_TOKEN: 'h',
      }),
    ).toEqual({ widget: { baseUrl: 'https://chat.example.com', websiteToken: 'w' }, hmacToken: 'h' });
    expect(() => liveChatOf({ CHATWOOT_BASE_URL: 'https://chat.example.com', CHATWOOT_WEBSITE_TOKEN: 'w' })).toThrow(
      ConfigError,
    );
  });
});

describe('token keys', () => {
  test('a matching pair passes', () => {
    expect(() => assertMatchingKeys(env)).not.toThrow();
  });

  test('a private key from another pair stops the start with a clear message', () => {
    const other = generateTokenKeys();
    expect(() => assertMatchingKeys({ ...env, JWT_PRIVATE_KEY: other.privateKey })).toThrow(
      'JWT_PRIVATE_KEY does not match JWT_PUBLIC_KEY',
    );
  });

  test('text that is not a key is reported as unusable', () => {
    expect(() => assertMatchingKeys({ ...env, JWT_PRIVATE_KEY: 'x'.repeat(60) })).toThrow(ConfigError);
  });
});
