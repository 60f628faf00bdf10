import { BaseConfig, ConfigError, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';

export const PaymentsConfigSchema = Type.Object({
  PORT: portConfig(4103),
  ...BaseConfig,
  AUTH_URL: Type.String({
    pattern: '^https?://',
    description: 'base URL of the auth service (token states, and who referred whom for the referral bonus)',
  }),
  TOKEN_STATE_TTL_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 5_000,
    description: 'how long a token state read from auth is trusted when no user.changed event arrives',
  }),
  BTCPAY_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description:
        'base URL of the BTCPay Server; unset, deposits are off (with a warning at start); set, BTCPAY_STORE_ID, BTCPAY_API_KEY and BTCPAY_WEBHOOK_SECRET are required too',
    }),
  ),
  BTCPAY_STORE_ID: Type.Optional(
    Type.String({ minLength: 1, description: 'the BTCPay store that holds top-up invoices' }),
  ),
  BTCPAY_API_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Greenfield API key that can create and view invoices, sent as Authorization: token …',
    }),
  ),
  BTCPAY_WEBHOOK_SECRET: Type.Optional(
    Type.String({ minLength: 1, description: "the secret of the store's webhook, which signs every delivery" }),
  ),
  DEPOSIT_RECONCILE_INTERVAL_MS: Type.Integer({
    minimum: 0,
    default: 60_000,
    description: 'how often open deposits are re-read from BTCPay in case a webhook was lost; 0 turns it off',
  }),
});
export type PaymentsConfig = Static<typeof PaymentsConfigSchema>;

export interface BtcpaySettings {
  url: string;
  storeId: string;
  apiKey: string;
  webhookSecret: string;
}

/**
 * The BTCPay settings, or null when deposits are off (no BTCPAY_URL). They
 * come as a group: a URL without its store, key or secret would take money
 * that could never be credited, so that stops the start naming what is missing.
 */
export function btcpaySettingsOf(config: PaymentsConfig): BtcpaySettings | null {
  if (!config.BTCPAY_URL) return null;
  const missing = (['BTCPAY_STORE_ID', 'BTCPAY_API_KEY', 'BTCPAY_WEBHOOK_SECRET'] as const).filter((k) => !config[k]);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((k) => `${k} is required when BTCPAY_URL is set`));
  }
  return {
    url: config.BTCPAY_URL,
    storeId: config.BTCPAY_STORE_ID as string,
    apiKey: config.BTCPAY_API_KEY as string,
    webhookSecret: config.BTCPAY_WEBHOOK_SECRET as string,
  };
}
