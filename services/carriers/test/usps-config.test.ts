import { Type } from 'typebox';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../kit/src/config';
import { scrubLogLine } from '../../kit/src/log-redaction';
import { carrierListProblem, createCarrierSet } from '../src/registry';
import {
  USPS_CONFIG,
  USPS_PRODUCTION_URL,
  USPS_TEST_URL,
  UspsConfigError,
  UspsConfigSchema,
  uspsConfigProblems,
  uspsSettingsOf,
} from '../src/usps-api/config';
import { uspsPlugin } from '../src/usps-api/plugin';

const GOOD = {
  USPS_CLIENT_ID: 'app-key',
  USPS_CLIENT_SECRET: 'app-secret-value',
  USPS_CRID: '56982563',
  USPS_MID: '899001',
  USPS_MANIFEST_MID: '899002',
  USPS_EPS_ACCOUNT: '1000098765',
};

describe('USPS settings', () => {
  test('every variable has a description; production is the default, the test environment one setting away', () => {
    for (const [name, schema] of Object.entries(USPS_CONFIG)) {
      expect((schema as { description?: string }).description, name).toBeTruthy();
    }
    expect(uspsSettingsOf(GOOD).baseUrl).toBe(USPS_PRODUCTION_URL);
    expect(uspsSettingsOf({ ...GOOD, USPS_API_BASE_URL: USPS_TEST_URL }).baseUrl).toBe('https://apis-tem.usps.com');
  });

  test('a service spreads the properties into its schema; the kit loader reads them', () => {
    const schema = Type.Object({ ...USPS_CONFIG });
    const config = loadConfig(schema, { ...GOOD, USPS_TIMEOUT_MS: '15000' });
    expect(config).toMatchObject({
      USPS_API_BASE_URL: USPS_PRODUCTION_URL,
      USPS_TIMEOUT_MS: 15000,
      USPS_BALANCE_PROBE_CENTS: 10000,
    });
    expect(uspsSettingsOf(config)).toMatchObject({ clientId: 'app-key', timeoutMs: 15000, mid: '899001' });
    // Without the carrier, a service starts with none of them set.
    expect(() => loadConfig(UspsConfigSchema, {})).not.toThrow();
  });

  test('each missing variable is named', () => {
    const problems = uspsConfigProblems({ ...GOOD, USPS_CLIENT_SECRET: undefined, USPS_EPS_ACCOUNT: ' ' });
    expect(problems).toEqual([
      'USPS_CLIENT_SECRET is required when the usps carrier is enabled (the consumer secret of the USPS app)',
      'USPS_EPS_ACCOUNT is required when the usps carrier is enabled (the EPS account that pays for postage)',
    ]);
  });

  test.each([
    ['USPS_MID', '12345', 'USPS_MID="12345" is invalid: a Mailer ID is 6 or 9 digits'],
    ['USPS_MANIFEST_MID', '12345678', 'USPS_MANIFEST_MID="12345678" is invalid: a Mailer ID is 6 or 9 digits'],
    ['USPS_CRID', 'CRID-1', 'USPS_CRID="CRID-1" is invalid: a CRID is 2 to 18 digits'],
    ['USPS_EPS_ACCOUNT', '12-34', 'USPS_EPS_ACCOUNT="12-34" is invalid: an EPS account number is digits'],
    ['USPS_API_BASE_URL', 'apis.usps.com', 'USPS_API_BASE_URL="apis.usps.com" is invalid: it must be an http(s) URL'],
    [
      'USPS_TIMEOUT_MS',
      '50',
      'USPS_TIMEOUT_MS="50" is invalid: it must be a whole number of milliseconds from 1000 to 120000',
    ],
  ])('an invalid %s is named with its value', (name, value, problem) => {
    expect(uspsConfigProblems({ ...GOOD, [name]: value })).toEqual([problem]);
  });

  test('a bad secret is named but its value is never repeated', () => {
    const problems = uspsConfigProblems({ ...GOOD, USPS_CLIENT_SECRET: undefined });
    expect(problems.join()).toContain('USPS_CLIENT_SECRET');
    expect(() => uspsSettingsOf({ ...GOOD, USPS_CLIENT_SECRET: undefined })).toThrow(UspsConfigError);
    try {
      uspsSettingsOf({ ...GOOD, USPS_MID: 'x' });
    } catch (err) {
      expect((err as Error).message).toContain('USPS_MID="x" is invalid');
      expect((err as Error).message).not.toContain(GOOD.USPS_CLIENT_SECRET);
    }
  });
});

test('a log line that carries the settings (a service logging its configuration) loses the secret to the kit logger', () => {
  const line = JSON.stringify({ msg: 'starting', carriers: { usps: GOOD } });
  const written = scrubLogLine(line);
  expect(written).not.toContain(GOOD.USPS_CLIENT_SECRET);
  expect(JSON.parse(written).carriers.usps).toMatchObject({
    USPS_CLIENT_SECRET: '[redacted]',
    USPS_CLIENT_ID: 'app-key',
  });
});

describe('the usps plugin', () => {
  test('sells the three USPS services as courier usps, beside the sandbox when both are enabled', async () => {
    expect(uspsPlugin).toMatchObject({ id: 'usps', courier: 'usps', name: 'USPS' });
    expect(uspsPlugin.services.map((s) => s.uid)).toEqual([
      'usps_priority_mail',
      'usps_ground_advantage',
      'usps_priority_mail_express',
    ]);
    expect(carrierListProblem('usps')).toBeNull();
    const set = createCarrierSet('usps,sandbox-usps', { usps: GOOD });
    expect(set.couriers).toEqual(['usps']);
    expect(set.routes().find((r) => r.serviceUid === 'usps_ground_advantage')?.carriers).toEqual([
      'usps',
      'sandbox-usps',
    ]);
    await set.close();
  });

  test('enabling it without its settings stops the start naming every variable missing', () => {
    expect(() => createCarrierSet('usps', {})).toThrow(/USPS_CLIENT_ID is required.*USPS_EPS_ACCOUNT is required/);
    expect(() => createCarrierSet('usps', { usps: { ...GOOD, USPS_MID: '1' } })).toThrow('USPS_MID="1" is invalid');
  });

  test('with its settings it builds a carrier with every capability', async () => {
    const set = createCarrierSet('usps', { usps: GOOD });
    expect(set.couriers).toEqual(['usps']);
    expect(set.services().map((s) => s.uid)).toContain('usps_ground_advantage');
    await set.close();
  });
});
