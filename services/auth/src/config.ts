import { sign, verify } from 'node:crypto';
import { BaseConfig, ConfigError, portConfig } from '@flatship/kit';
import { type Static, Type } from 'typebox';

export const AuthConfigSchema = Type.Object({
  PORT: portConfig(4101),
  ...BaseConfig,
  JWT_PRIVATE_KEY: Type.String({
    minLength: 40,
    description: 'Ed25519 private key (PEM) that signs access tokens; the start checks it matches JWT_PUBLIC_KEY',
  }),
  JWT_TTL: Type.String({
    default: '7d',
    pattern: '^[0-9]+(s|m|h|d)$',
    description: 'access token lifetime, with a unit: 7d, 12h, 3600s',
  }),
  LOGIN_AS_TTL: Type.String({
    default: '1h',
    pattern: '^[0-9]+(s|m|h|d)$',
    description:
      'lifetime of the token an admin gets to act as a user (Login As), with a unit: 1h, 30m; it also ends when the admin is demoted, blocked or deleted, or goes back to admin',
  }),
  ADMIN_EMAIL: Type.Optional(
    Type.String({
      description: 'email of the admin created at start when ADMIN_PASSWORD is set too and no admin exists yet',
    }),
  ),
  ADMIN_PASSWORD: Type.Optional(
    Type.String({
      minLength: 8,
      maxLength: 200,
      description: 'password of the admin created at start when ADMIN_EMAIL is set too and no admin exists yet',
    }),
  ),
  PAYMENTS_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description: 'base URL of the payments service (balances, deposits); unset, every balance reads 0',
    }),
  ),
  ORDERS_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'base URL of the orders service, which checks saved addresses with the carrier; unset, addresses are saved unchecked',
    }),
  ),
  PUBLIC_URL: Type.String({
    pattern: '^https?://[^/\\s]+/?$',
    default: 'http://localhost:8080',
    description:
      'address users open the web app at (the gateway); password reset links point there (make start sets it)',
  }),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      description:
        'SMTP server that sends password reset emails, e.g. smtp://user:pass@mail.example.com:587 or smtps://… for TLS; without it no email is sent (the log says who asked, never the link) and an admin makes links on User Management',
    }),
  ),
  MAIL_FROM: Type.String({
    minLength: 3,
    default: 'Flatship <no-reply@localhost>',
    description: 'sender of password reset emails',
  }),
  CHATWOOT_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/\\s]+/?$',
      description:
        'Chatwoot installation the live chat widget loads from; the three CHATWOOT_ variables are set together or not at all',
    }),
  ),
  CHATWOOT_WEBSITE_TOKEN: Type.Optional(
    Type.String({ minLength: 1, description: 'website token of the Chatwoot website inbox' }),
  ),
  CHATWOOT_HMAC_TOKEN: Type.Optional(
    Type.String({
      minLength: 1,
      description: "the website inbox's HMAC token, which signs the chat identity of users",
    }),
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

/**
 * Live chat needs all three Chatwoot settings: a widget without the HMAC token
 * could not prove who users are, and a token alone has no widget to serve.
 */
export function liveChatOf(
  config: Pick<AuthConfig, 'CHATWOOT_BASE_URL' | 'CHATWOOT_WEBSITE_TOKEN' | 'CHATWOOT_HMAC_TOKEN'>,
): { widget: { baseUrl: string; websiteToken: string } | null; hmacToken: string | null } {
  const { CHATWOOT_BASE_URL: baseUrl, CHATWOOT_WEBSITE_TOKEN: websiteToken, CHATWOOT_HMAC_TOKEN: hmacToken } = config;
  const given = [baseUrl, websiteToken, hmacToken].filter(Boolean).length;
  if (given === 0) return { widget: null, hmacToken: null };
  if (!baseUrl || !websiteToken || !hmacToken) {
    throw new ConfigError([
      'CHATWOOT_BASE_URL, CHATWOOT_WEBSITE_TOKEN and CHATWOOT_HMAC_TOKEN must be set together (live chat), or none of them',
    ]);
  }
  return { widget: { baseUrl: baseUrl.replace(/\/+$/, ''), websiteToken }, hmacToken };
}
