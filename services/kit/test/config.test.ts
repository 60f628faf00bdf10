import { Type } from 'typebox';
import { describe, expect, test } from 'vitest';
import { BaseConfig, ConfigError, loadConfig, portConfig } from '../src/config';

const Schema = Type.Object({ PORT: portConfig(3000), ...BaseConfig });
const good = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  JWT_PUBLIC_KEY: `-----BEGIN PUBLIC KEY-----\n${'A'.repeat(60)}\n-----END PUBLIC KEY-----`,
  INTERNAL_SECRET: 'a-long-enough-secret',
};

describe('loadConfig', () => {
  test('applies defaults and converts numbers', () => {
    const cfg = loadConfig(Schema, { ...good, PORT: '4100' });
    expect(cfg.PORT).toBe(4100);
    expect(cfg.HOST).toBe('127.0.0.1');
    expect(cfg.LOG_LEVEL).toBe('info');
  });

  test('names every missing variable', () => {
    try {
      loadConfig(Schema, {});
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const msg = (e as Error).message;
      expect(msg).toContain('DATABASE_URL is required');
      expect(msg).toContain('JWT_PUBLIC_KEY is required');
      expect(msg).toContain('INTERNAL_SECRET is required');
    }
  });

  test('a check across variables runs on the converted configuration and stops the start the same way', () => {
    const check = (cfg: { PORT: number }, env: Record<string, string | undefined>) =>
      cfg.PORT === 4100 && !env.PARTNER_KEY ? ['PARTNER_KEY is required when PORT is 4100'] : [];
    expect(loadConfig(Schema, { ...good, PORT: '4101' }, check).PORT).toBe(4101);
    expect(loadConfig(Schema, { ...good, PORT: '4100', PARTNER_KEY: 'k' }, check).PORT).toBe(4100);
    expect(() => loadConfig(Schema, { ...good, PORT: '4100' }, check)).toThrow(ConfigError);
    expect(() => loadConfig(Schema, { ...good, PORT: '4100' }, check)).toThrow(/PARTNER_KEY is required when PORT/);
  });

  test('names a bad value', () => {
    expect(() => loadConfig(Schema, { ...good, PORT: 'eighty' })).toThrow(/PORT="eighty" is invalid/);
    expect(() => loadConfig(Schema, { ...good, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig(Schema, { ...good, LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL="loud"/);
  });

  test('never repeats the value of a secret, nor the password in a URL', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(Schema, { ...good, ...env });
      } catch (e) {
        return (e as ConfigError).message;
      }
      return '';
    };
    const short = problems({ INTERNAL_SECRET: 'tiny-secret' });
    expect(short).toContain('INTERNAL_SECRET (value not shown) is invalid');
    expect(short).not.toContain('tiny-secret');
    const key = problems({ JWT_PUBLIC_KEY: 'short-key' });
    expect(key).not.toContain('short-key');
    const url = problems({ DATABASE_URL: 'mysql://flatship:db-password-123@db:3306/x' });
    expect(url).toContain('DATABASE_URL="mysql://[redacted]@db:3306/x" is invalid');
    expect(url).not.toContain('db-password-123');
  });
});
