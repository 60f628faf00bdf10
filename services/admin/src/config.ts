import { BaseConfig, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';

export const AdminConfigSchema = Type.Object({
  PORT: portConfig(4105),
  ...BaseConfig,
  AUTH_URL: Type.String({ pattern: '^https?://', description: 'base URL of the auth service (users, token states)' }),
  PAYMENTS_URL: Type.String({ pattern: '^https?://', description: 'base URL of the payments service (balances)' }),
  ORDERS_URL: Type.String({ pattern: '^https?://', description: 'base URL of the orders service (dashboard figures)' }),
  TOKEN_STATE_TTL_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 5_000,
    description: 'how long a token state read from auth is trusted when no user.changed event arrives',
  }),
});
export type AdminConfig = Static<typeof AdminConfigSchema>;
