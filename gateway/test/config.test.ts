import { resolve } from 'node:path';
import { ConfigError } from '@flatship/kit';
import { describe, expect, test } from 'vitest';
import { loadGatewayConfig } from '../src/config';
import { keys } from './helpers';

const base = {
  DATABASE_URL: 'postgres://localhost:5432/flatship',
  JWT_PUBLIC_KEY: keys.publicKey,
  INTERNAL_SECRET: 'a-long-enough-internal-secret',
  AUTH_URL: 'http://127.0.0.1:3001/',
};

describe('gateway config', () => {
  test('defaults: port 8080 on loopback, only auth configured, web/dist of the repository, 20 attempts a minute', () => {
    const c = loadGatewayConfig(base);
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.upstreams).toEqual({ auth: 'http://127.0.0.1:3001' });
    expect(c.staticDir).toBe(resolve(import.meta.dirname, '../../web/dist'));
    expect(c.rateLimit).toEqual({ max: 20, timeWindow: '1 minute' });
    expect(c.trustProxy).toBe(false);
    expect(c.cspExtraOrigins).toEqual([]);
    expect(c.readyAlso).toEqual({});
    expect(c.management).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  test('METRICS_PORT and MANAGEMENT_HOST place the management listener; a bad port is refused by name', () => {
    const c = loadGatewayConfig({ ...base, METRICS_PORT: '9100', MANAGEMENT_HOST: '0.0.0.0' });
    expect(c.management).toEqual({ host: '0.0.0.0', port: 9100 });
    expect(() => loadGatewayConfig({ ...base, METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT="nine" is invalid/);
  });

  test('the postgres bus (the default) needs DATABASE_URL; with EVENT_BUS=kafka only the brokers are needed', () => {
    const { DATABASE_URL: _, ...withoutDatabase } = base;
    expect(loadGatewayConfig(base).bus).toEqual({ EVENT_BUS: 'postgres', KAFKA_IDEMPOTENT: true });
    expect(() => loadGatewayConfig(withoutDatabase)).toThrow(/DATABASE_URL is required but not set/);
    const kafka = loadGatewayConfig({
      ...withoutDatabase,
      EVENT_BUS: 'kafka',
      KAFKA_BROKERS: 'kafka-0:9092,kafka-1:9092',
    });
    expect(kafka.databaseUrl).toBeUndefined();
    expect(kafka.bus).toEqual({
      EVENT_BUS: 'kafka',
      KAFKA_BROKERS: 'kafka-0:9092,kafka-1:9092',
      KAFKA_IDEMPOTENT: true,
    });
    // The Kafka settings every service shares reach the gateway's bus too.
    const tuned = loadGatewayConfig({
      ...withoutDatabase,
      EVENT_BUS: 'kafka',
      KAFKA_BROKERS: 'kafka-0:9092',
      KAFKA_IDEMPOTENT: 'false',
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      KAFKA_LEADER_SYNC_DELAY_MS: '1000',
    });
    expect(tuned.bus).toMatchObject({
      KAFKA_IDEMPOTENT: false,
      KAFKA_SESSION_TIMEOUT_MS: 10000,
      KAFKA_LEADER_SYNC_DELAY_MS: 1000,
    });
    expect(() => loadGatewayConfig({ ...base, EVENT_BUS: 'rabbit' })).toThrow(/EVENT_BUS="rabbit" is invalid/);
  });

  test('READY_ALSO lists other processes by name and base URL', () => {
    const c = loadGatewayConfig({
      ...base,
      READY_ALSO: 'btcpay=http://127.0.0.1:4170/, label-worker=http://127.0.0.1:4106',
    });
    expect(c.readyAlso).toEqual({ btcpay: 'http://127.0.0.1:4170', 'label-worker': 'http://127.0.0.1:4106' });
    expect(() => loadGatewayConfig({ ...base, READY_ALSO: 'btcpay' })).toThrow(ConfigError);
  });

  test('optional services, limits and extra origins are read', () => {
    const c = loadGatewayConfig({
      ...base,
      PORT: '9000',
      ORDERS_URL: 'http://orders:3000',
      PAYMENTS_URL: 'http://payments:3000',
      PRICING_URL: 'http://pricing:3000',
      ADMIN_URL: 'https://admin.internal',
      RATE_LIMIT_AUTH_MAX: '5',
      RATE_LIMIT_WINDOW: '30s',
      TRUST_PROXY: 'true',
      STATIC_DIR: '/srv/web',
      CSP_EXTRA_ORIGINS: 'https://pay.example.com, https://chat.example.com',
    });
    expect(c.port).toBe(9000);
    expect(c.upstreams).toEqual({
      auth: 'http://127.0.0.1:3001',
      orders: 'http://orders:3000',
      payments: 'http://payments:3000',
      'services-pricing': 'http://pricing:3000',
      admin: 'https://admin.internal',
    });
    expect(c.rateLimit).toEqual({ max: 5, timeWindow: '30s' });
    expect(c.trustProxy).toBe(true);
    expect(c.staticDir).toBe('/srv/web');
    expect(c.cspExtraOrigins).toEqual(['https://pay.example.com', 'https://chat.example.com']);
  });

  test("the Chatwoot installation's origin is allowed by the CSP, once", () => {
    expect(loadGatewayConfig({ ...base, CHATWOOT_BASE_URL: 'https://chat.example.com/' }).cspExtraOrigins).toEqual([
      'https://chat.example.com',
    ]);
    expect(
      loadGatewayConfig({
        ...base,
        CSP_EXTRA_ORIGINS: 'https://pay.example.com https://chat.example.com',
        CHATWOOT_BASE_URL: 'https://chat.example.com',
      }).cspExtraOrigins,
    ).toEqual(['https://pay.example.com', 'https://chat.example.com']);
    expect(() => loadGatewayConfig({ ...base, CHATWOOT_BASE_URL: 'chat.example.com' })).toThrow(ConfigError);
  });

  test('bad or missing values stop start-up naming each variable', () => {
    try {
      loadGatewayConfig({
        ...base,
        AUTH_URL: undefined,
        ORDERS_URL: 'orders:3000',
        RATE_LIMIT_AUTH_MAX: '0',
        RATE_LIMIT_WINDOW: 'soon',
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const text = (e as ConfigError).problems.join('\n');
      expect(text).toContain('AUTH_URL is required');
      expect(text).toContain('ORDERS_URL');
      expect(text).toContain('RATE_LIMIT_AUTH_MAX');
      expect(text).toContain('RATE_LIMIT_WINDOW');
    }
  });
});
