import { CARRIER_ACCOUNTS_CONFIG, carriersConfig, DEFAULT_SANDBOX_CARRIER_BALANCE } from '@flatship/carriers';
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
  CARRIERS: carriersConfig('the carriers whose account balances the admin dashboard shows'),
  SANDBOX_CARRIER_BALANCE: Type.Number({
    minimum: 0,
    maximum: 100_000_000,
    default: DEFAULT_SANDBOX_CARRIER_BALANCE,
    description: 'the account balance the sandbox carrier reports, in dollars',
  }),
  CARRIER_BALANCE_WARN_CENTS: Type.Integer({
    minimum: 0,
    maximum: 10_000_000_000,
    // $100: what a busy day of labels costs a small shop.
    default: 100_00,
    description:
      'a carrier account balance below this many cents ($100 by default) shows as low on the admin dashboard (0: never)',
  }),
  USERS_VIEW_SEED_RETRY_MS: Type.Integer({
    minimum: 1000,
    default: 30_000,
    description: 'how long to wait before trying again when the first fill of the user table fails',
  }),
  // The live carriers' accounts (USPS_*, EASYPOST_*), for their balances: checked at start when CARRIERS enables them.
  ...CARRIER_ACCOUNTS_CONFIG,
});
export type AdminConfig = Static<typeof AdminConfigSchema>;
