import { type Static, Type } from 'typebox';

/** USPS's two environments (the `servers` of every v3 spec). */
export const USPS_PRODUCTION_URL = 'https://apis.usps.com';
export const USPS_TEST_URL = 'https://apis-tem.usps.com';

const MID_PATTERN = '^(\\d{6}|\\d{9})$';

/**
 * The settings of the USPS adapter, as a TypeBox properties object a service spreads into its config schema. The
 * credentials are optional there, because a service may run without the live carrier; `uspsConfigProblems` says
 * which are missing or wrong when `CARRIERS` enables `usps`.
 */
export const USPS_CONFIG = {
  USPS_API_BASE_URL: Type.String({
    default: USPS_PRODUCTION_URL,
    pattern: '^https?://',
    description: `USPS APIs v3 base URL: ${USPS_PRODUCTION_URL} (production) or ${USPS_TEST_URL} (USPS's test environment)`,
  }),
  USPS_CLIENT_ID: Type.Optional(
    Type.String({ minLength: 1, description: 'consumer key of the app registered at the USPS developer portal' }),
  ),
  USPS_CLIENT_SECRET: Type.Optional(
    Type.String({ minLength: 1, description: 'consumer secret of that app (a secret: never logged)' }),
  ),
  USPS_CRID: Type.Optional(
    Type.String({
      pattern: '^\\d{2,18}$',
      description: 'Customer Registration ID of the business that pays for and owns the labels',
    }),
  ),
  USPS_MID: Type.Optional(
    Type.String({ pattern: MID_PATTERN, description: 'Mailer ID (6 or 9 digits) the tracking numbers are made from' }),
  ),
  USPS_MANIFEST_MID: Type.Optional(
    Type.String({ pattern: MID_PATTERN, description: 'Mailer ID (6 or 9 digits) the labels are manifested under' }),
  ),
  USPS_EPS_ACCOUNT: Type.Optional(
    Type.String({ pattern: '^\\d+$', description: 'Enterprise Payment System account number postage is paid from' }),
  ),
  USPS_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 120_000,
    default: 30_000,
    description:
      'how long one call to USPS may take before it is given up (a purchase is then replayed, never re-bought)',
  }),
  USPS_BALANCE_PROBE_CENTS: Type.Integer({
    minimum: 1,
    default: 100_00,
    description:
      'USPS tells only whether the EPS account covers an amount: the balance reported is this amount when it does and 0 when not (set it to CARRIER_BALANCE_WARN_CENTS)',
  }),
};

export const UspsConfigSchema = Type.Object(USPS_CONFIG);
export type UspsConfig = Static<typeof UspsConfigSchema>;

/** What the USPS carrier needs to sell labels; `uspsSettingsOf` reads it from a service's configuration. */
export interface UspsSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  crid: string;
  mid: string;
  manifestMid: string;
  epsAccount: string;
  timeoutMs: number;
  balanceProbeCents: number;
}

const REQUIRED = [
  ['USPS_CLIENT_ID', 'the consumer key of the USPS app'],
  ['USPS_CLIENT_SECRET', 'the consumer secret of the USPS app'],
  ['USPS_CRID', 'the Customer Registration ID'],
  ['USPS_MID', 'the Mailer ID of the labels'],
  ['USPS_MANIFEST_MID', 'the manifest Mailer ID'],
  ['USPS_EPS_ACCOUNT', 'the EPS account that pays for postage'],
] as const;

type RawUspsConfig = Partial<Record<keyof typeof USPS_CONFIG, string | number | undefined>>;

/**
 * Everything wrong with the USPS settings, each naming its variable (never a secret's value); empty when the carrier
 * can start. For use at start-up when `CARRIERS` enables `usps`.
 */
export function uspsConfigProblems(config: RawUspsConfig): string[] {
  const problems: string[] = [];
  const text = (name: keyof typeof USPS_CONFIG) => {
    const v = config[name];
    return v === undefined || v === null ? '' : String(v).trim();
  };
  for (const [name, what] of REQUIRED) {
    if (text(name) === '') problems.push(`${name} is required when the usps carrier is enabled (${what})`);
  }
  const check = (name: keyof typeof USPS_CONFIG, ok: (v: string) => boolean, rule: string) => {
    const v = text(name);
    if (v !== '' && !ok(v)) {
      const shown = name === 'USPS_CLIENT_SECRET' ? `${name} (value not shown)` : `${name}=${JSON.stringify(v)}`;
      problems.push(`${shown} is invalid: ${rule}`);
    }
  };
  check('USPS_API_BASE_URL', (v) => /^https?:\/\/[^/\s]+/.test(v), 'it must be an http(s) URL');
  check('USPS_CRID', (v) => /^\d{2,18}$/.test(v), 'a CRID is 2 to 18 digits');
  check('USPS_MID', (v) => new RegExp(MID_PATTERN).test(v), 'a Mailer ID is 6 or 9 digits');
  check('USPS_MANIFEST_MID', (v) => new RegExp(MID_PATTERN).test(v), 'a Mailer ID is 6 or 9 digits');
  check('USPS_EPS_ACCOUNT', (v) => /^\d+$/.test(v), 'an EPS account number is digits');
  check(
    'USPS_TIMEOUT_MS',
    (v) => /^\d+$/.test(v) && Number(v) >= 1000 && Number(v) <= 120_000,
    'it must be a whole number of milliseconds from 1000 to 120000',
  );
  check('USPS_BALANCE_PROBE_CENTS', (v) => /^\d+$/.test(v) && Number(v) >= 1, 'it must be a whole number of cents');
  return problems;
}

/** The settings the carrier runs with; throws naming every variable at fault (`uspsConfigProblems`). */
export function uspsSettingsOf(config: RawUspsConfig): UspsSettings {
  const problems = uspsConfigProblems(config);
  if (problems.length > 0) throw new UspsConfigError(problems);
  const text = (name: keyof typeof USPS_CONFIG) => String(config[name] ?? '').trim();
  return {
    baseUrl: text('USPS_API_BASE_URL') || USPS_PRODUCTION_URL,
    clientId: text('USPS_CLIENT_ID'),
    clientSecret: text('USPS_CLIENT_SECRET'),
    crid: text('USPS_CRID'),
    mid: text('USPS_MID'),
    manifestMid: text('USPS_MANIFEST_MID'),
    epsAccount: text('USPS_EPS_ACCOUNT'),
    timeoutMs: config.USPS_TIMEOUT_MS === undefined ? 30_000 : Number(config.USPS_TIMEOUT_MS),
    balanceProbeCents: config.USPS_BALANCE_PROBE_CENTS === undefined ? 100_00 : Number(config.USPS_BALANCE_PROBE_CENTS),
  };
}

/** The USPS settings cannot start the carrier; `problems` name the variables. */
export class UspsConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`USPS carrier configuration: ${problems.join('; ')}`);
    this.name = 'UspsConfigError';
  }
}
