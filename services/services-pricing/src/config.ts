import { carriersConfig } from '@flatship/carriers';
import { BaseConfig, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';

export const PricingConfigSchema = Type.Object({
  PORT: portConfig(4104),
  ...BaseConfig,
  CARRIERS: carriersConfig('the carriers whose services are synced and priced'),
  AUTH_URL: Type.String({ pattern: '^https?://', description: 'base URL of the auth service (token states)' }),
  TOKEN_STATE_TTL_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 5_000,
    description: 'how long a token state read from auth is trusted without a user.changed event',
  }),
});
export type PricingConfig = Static<typeof PricingConfigSchema>;
