import { sign, verify } from 'node:crypto';
import { BaseConfig, ConfigError, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';

export const AuthConfigSchema = Type.Object({
  PORT: portConfig(4101),
  ...BaseConfig,
  JWT_PRIVATE_KEY: Type.String({ minLength: 40, description: 'PEM private key that signs access tokens' }),
  JWT_TTL: Type.String({
    default: '7d',
    pattern: '^[0-9]+(s|m|h|d)$',
    description: 'access token lifetime, with a unit: 7d, 12h, 3600s',
  }),
  ADMIN_EMAIL: Type.Optional(Type.String({ description: 'email of the admin created on first start' })),
  ADMIN_PASSWORD: Type.Optional(
    Type.String({ minLength: 8, maxLength: 200, description: 'password of the admin created on first start' }),
  ),
  PAYMENTS_URL: Type.Optional(
    Type.String({ pattern: '^https?://', description: 'base URL of the payments service (balances, deposits)' }),
  ),
});
export type AuthConfig = Static<typeof AuthConfigSchema>;

/**
 * A private key that does not match the public one would let the service
 * start and then refuse every token it issued; stop at start-up instead.
 */
export function assertMatchingKeys(config: Pick<AuthConfig, 'JWT_PUBLIC_KEY' | 'JWT_PRIVATE_KEY'>): void {
  const probe = Buffer.from('flatship-key-check');
  let matches = false;
  try {
    matches = verify(null, probe, config.JWT_PUBLIC_KEY, sign(null, probe, config.JWT_PRIVATE_KEY));
  } catch (e) {
    throw new ConfigError([
      `JWT_PUBLIC_KEY / JWT_PRIVATE_KEY are not usable Ed25519 PEM keys: ${(e as Error).message}`,
    ]);
  }
  if (!matches) throw new ConfigError(['JWT_PRIVATE_KEY does not match JWT_PUBLIC_KEY']);
}
