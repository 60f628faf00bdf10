import { BaseConfig, portConfig } from '@flatship/kit';
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
