import { Type } from 'typebox';

/**
 * The EasyPost adapter's settings. A service that sells through EasyPost spreads `EASYPOST_CONFIG` into its
 * configuration schema (read once at start by the kit loader) and passes `easyPostSettings(config)` to the registry
 * as `CarrierSettings.easypost`. `EASYPOST_API_KEY` is optional in the schema so that services selling only the
 * sandbox do not need it; `easyPostConfigProblems` is the start-up check for when `easypost` is enabled.
 */
export const EASYPOST_DEFAULT_BASE_URL = 'https://api.easypost.com';

/** EasyPost API keys: `EZTK…` are test keys (no postage is charged), `EZAK…` production keys. */
const KEY_PATTERN = '^EZ(TK|AK)[A-Za-z0-9]{8,}$';

export const EASYPOST_CONFIG = {
  EASYPOST_API_BASE_URL: Type.String({
    pattern: '^https?://',
    default: EASYPOST_DEFAULT_BASE_URL,
    description: 'EasyPost API origin (the adapter adds /v2); https unless the host is this machine',
  }),
  EASYPOST_API_KEY: Type.Optional(
    Type.String({
      pattern: KEY_PATTERN,
      description: 'EasyPost API key: EZTK… (test, nothing is charged) or EZAK… (production, real postage)',
    }),
  ),
  EASYPOST_WEBHOOK_SECRET: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'the webhook secret given to EasyPost; tracker events are accepted only with its HMAC signature',
    }),
  ),
  EASYPOST_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 120_000,
    default: 20_000,
    description: 'how long one call to EasyPost may take before it counts as unanswered',
  }),
  EASYPOST_MAX_RETRIES: Type.Integer({
    minimum: 0,
    maximum: 5,
    default: 2,
    description: 'attempts after the first for a throttled (429) or failed (5xx) call that may be sent again',
  }),
  EASYPOST_CARRIER_ACCOUNT_ID: Type.Optional(
    Type.String({
      pattern: '^ca_[A-Za-z0-9]+$',
      description:
        'the USPS carrier account (ca_…) to rate and buy with; all of the account’s USPS accounts when unset',
    }),
  ),
  EASYPOST_TEST_BALANCE: Type.Number({
    minimum: 0,
    default: 10_000,
    description:
      'dollars reported as the balance with a test key (EasyPost answers its Users API, which holds the wallet, only to production keys)',
  }),
};

export type EasyPostKeyMode = 'test' | 'production';

/** What the adapter needs, as read from configuration. */
export interface EasyPostSettings {
  apiKey: string;
  /** Origin of the API, without `/v2`. */
  baseUrl: string;
  webhookSecret?: string;
  timeoutMs: number;
  maxRetries: number;
  carrierAccountId?: string;
  /** The balance, in cents, reported with a test key. */
  testBalanceCents: number;
}

/** Test or production, from a key's prefix; null for something that is not an EasyPost key. */
export function easyPostKeyMode(key: string | undefined): EasyPostKeyMode | null {
  if (!key || !new RegExp(KEY_PATTERN).test(key)) return null;
  return key.startsWith('EZAK') ? 'production' : 'test';
}

/** How a key may be named in logs and answers: its kind and prefix, never the key. */
export function describeEasyPostKey(key: string | undefined): string {
  const mode = easyPostKeyMode(key);
  if (mode === 'production') return 'a production key (EZAK…)';
  if (mode === 'test') return 'a test key (EZTK…)';
  return 'no valid key';
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function baseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password (the key goes in EASYPOST_API_KEY)';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (LOOPBACK.has(url.hostname) || url.hostname.startsWith('127.'))) return null;
  return 'must be an https URL (plain http only to this machine): the API key travels with every call';
}

function integerProblem(value: string, min: number, max: number): string | null {
  if (!/^\d+$/.test(value.trim())) return `must be a whole number from ${min} to ${max}`;
  const n = Number(value);
  return n >= min && n <= max ? null : `must be a whole number from ${min} to ${max}`;
}

type Env = Readonly<Record<string, string | undefined>>;
const given = (env: Env, name: string) => {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
};

/**
 * What is wrong with the EasyPost variables, one line per problem, each naming its variable; empty when they are
 * fine. Secret values (the key, the webhook secret) are never repeated. For start-up checks when `easypost` is
 * among `CARRIERS`.
 */
export function easyPostConfigProblems(env: Env): string[] {
  const problems: string[] = [];
  const key = given(env, 'EASYPOST_API_KEY');
  if (key === undefined) problems.push('EASYPOST_API_KEY is required when CARRIERS includes easypost but is not set');
  else if (easyPostKeyMode(key) === null) {
    problems.push(
      'EASYPOST_API_KEY (value not shown) is invalid: an EasyPost API key starts with EZTK (test) or EZAK (production)',
    );
  }
  const base = given(env, 'EASYPOST_API_BASE_URL');
  if (base !== undefined) {
    const problem = baseUrlProblem(base);
    // A URL's user name and password are not repeated (the kit loader's rule for URLs in problems).
    const shown = JSON.stringify(base.replace(/\/\/[^/@\s]*@/, '//[redacted]@'));
    if (problem) problems.push(`EASYPOST_API_BASE_URL=${shown} is invalid: it ${problem}`);
  }
  for (const [name, min, max] of [
    ['EASYPOST_TIMEOUT_MS', 1000, 120_000],
    ['EASYPOST_MAX_RETRIES', 0, 5],
  ] as const) {
    const v = given(env, name);
    const problem = v === undefined ? null : integerProblem(v, min, max);
    if (problem) problems.push(`${name}=${JSON.stringify(v)} is invalid: it ${problem}`);
  }
  const account = given(env, 'EASYPOST_CARRIER_ACCOUNT_ID');
  if (account !== undefined && !/^ca_[A-Za-z0-9]+$/.test(account)) {
    problems.push(
      `EASYPOST_CARRIER_ACCOUNT_ID=${JSON.stringify(account)} is invalid: a carrier account id starts with ca_`,
    );
  }
  const balance = given(env, 'EASYPOST_TEST_BALANCE');
  if (balance !== undefined && !(Number(balance) >= 0)) {
    problems.push(
      `EASYPOST_TEST_BALANCE=${JSON.stringify(balance)} is invalid: it must be a number of dollars, 0 or more`,
    );
  }
  const secret = env.EASYPOST_WEBHOOK_SECRET;
  if (secret !== undefined && secret !== '' && secret.trim() === '') {
    problems.push('EASYPOST_WEBHOOK_SECRET (value not shown) is invalid: it is only spaces');
  }
  return problems;
}

/** The EasyPost variables were refused; `problems` names each. */
export class EasyPostConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid EasyPost configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EasyPostConfigError';
  }
}

/**
 * The adapter's settings from configuration values (raw environment strings or the kit loader's typed values);
 * throws `EasyPostConfigError` naming every bad variable.
 */
export function easyPostSettings(config: Readonly<Record<string, string | number | undefined>>): EasyPostSettings {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(config)) env[k] = v === undefined ? undefined : String(v);
  const problems = easyPostConfigProblems(env);
  if (problems.length > 0) throw new EasyPostConfigError(problems);
  const webhookSecret = given(env, 'EASYPOST_WEBHOOK_SECRET');
  const carrierAccountId = given(env, 'EASYPOST_CARRIER_ACCOUNT_ID');
  return {
    apiKey: env.EASYPOST_API_KEY as string,
    baseUrl: (given(env, 'EASYPOST_API_BASE_URL') ?? EASYPOST_DEFAULT_BASE_URL).replace(/\/+$/, ''),
    ...(webhookSecret === undefined ? {} : { webhookSecret }),
    timeoutMs: Number(given(env, 'EASYPOST_TIMEOUT_MS') ?? 20_000),
    maxRetries: Number(given(env, 'EASYPOST_MAX_RETRIES') ?? 2),
    ...(carrierAccountId === undefined ? {} : { carrierAccountId }),
    testBalanceCents: Math.round(Number(given(env, 'EASYPOST_TEST_BALANCE') ?? 10_000) * 100),
  };
}

/** One line for a start-up log: where the adapter sends its calls and with which kind of key, never the key. */
export function describeEasyPostSetup(settings: Pick<EasyPostSettings, 'apiKey' | 'baseUrl'>): string {
  return `EasyPost at ${settings.baseUrl} with ${describeEasyPostKey(settings.apiKey)}`;
}
