import { loadConfig, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';

export const BtcpayConfigSchema = Type.Object({
  PORT: portConfig(4170),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'interface to listen on' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'pino log level' },
  ),
  BTCPAY_STORE_ID: Type.String({ minLength: 1, description: 'the one store the simulator serves' }),
  BTCPAY_API_KEY: Type.String({ minLength: 16, description: 'the Greenfield API key callers must send' }),
  BTCPAY_WEBHOOK_URL: Type.String({ pattern: '^https?://\\S+$', description: 'where invoice webhooks are posted' }),
  BTCPAY_WEBHOOK_SECRET: Type.String({ minLength: 16, description: 'HMAC key of the BTCPay-Sig header' }),
  BTCPAY_PUBLIC_URL: Type.String({
    pattern: '^https?://[^\\s/]+/?$',
    description: 'the simulator as a browser reaches it, e.g. http://127.0.0.1:4170',
  }),
  BTCPAY_DATA_FILE: Type.Optional(
    Type.String({ minLength: 1, description: 'JSON file that keeps invoices across restarts; memory only when unset' }),
  ),
});
export type BtcpayConfig = Static<typeof BtcpayConfigSchema>;

export const loadBtcpayConfig = (env: Record<string, string | undefined> = process.env): BtcpayConfig =>
  loadConfig(BtcpayConfigSchema, env);
