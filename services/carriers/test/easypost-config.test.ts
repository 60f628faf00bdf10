import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { afterEach, describe, expect, test } from 'vitest';
import {
  describeEasyPostKey,
  describeEasyPostSetup,
  EASYPOST_CONFIG,
  EasyPostConfigError,
  easyPostConfigProblems,
  easyPostSettings,
} from '../src/easypost/config';
import { createEasyPostCarrier } from '../src/easypost/easypost-carrier';
import { easyPostPlugin } from '../src/easypost/plugin';
import { CARRIER_CAPABILITIES, createProcessMemory, supports } from '../src/port';
import { CARRIER_PLUGINS, carrierConfigProblems, carrierListProblem, createCarrierSet } from '../src/registry';
import { easyPostErrorBody } from '../src/testing';
import { type EasyPostRig, easyPostRig, labelRequest, RECIPIENT } from './fixtures/easypost';

let rig: EasyPostRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const KEY = 'EZTK1234567890abcdef1234567890ab';
const PROD = 'EZAK1234567890abcdef1234567890ab';

describe('configuration', () => {
  test('every variable is described, and the defaults are the documented origin and sensible limits', () => {
    for (const [name, schema] of Object.entries(EASYPOST_CONFIG)) {
      expect(name).toMatch(/^EASYPOST_/);
      expect((schema as { description?: string }).description?.length).toBeGreaterThan(20);
    }
    const schema = Type.Object(EASYPOST_CONFIG);
    const loaded = Value.Convert(schema, Value.Default(schema, { EASYPOST_API_KEY: KEY })) as Record<string, unknown>;
    expect(Value.Check(schema, loaded)).toBe(true);
    expect(loaded).toMatchObject({
      EASYPOST_API_BASE_URL: 'https://api.easypost.com',
      EASYPOST_TIMEOUT_MS: 20_000,
      EASYPOST_MAX_RETRIES: 2,
    });
    expect(Value.Check(schema, { ...loaded, EASYPOST_API_KEY: 'sk_live_123' })).toBe(false);
    expect(easyPostSettings(loaded as Record<string, string>)).toEqual({
      apiKey: KEY,
      baseUrl: 'https://api.easypost.com',
      timeoutMs: 20_000,
      maxRetries: 2,
      testBalanceCents: 1_000_000,
    });
  });

  test('problems name the variable and never repeat a secret', () => {
    expect(easyPostConfigProblems({})).toEqual([
      'EASYPOST_API_KEY is required when CARRIERS includes easypost but is not set',
    ]);
    const problems = easyPostConfigProblems({
      EASYPOST_API_KEY: 'sk_live_abcdef123456',
      EASYPOST_API_BASE_URL: 'http://api.easypost.com',
      EASYPOST_TIMEOUT_MS: '500',
      EASYPOST_MAX_RETRIES: 'lots',
      EASYPOST_CARRIER_ACCOUNT_ID: 'usps',
      EASYPOST_TEST_BALANCE: '-1',
      EASYPOST_WEBHOOK_SECRET: '   ',
    });
    expect(problems).toEqual([
      'EASYPOST_API_KEY (value not shown) is invalid: an EasyPost API key starts with EZTK (test) or EZAK (production)',
      'EASYPOST_API_BASE_URL="http://api.easypost.com" is invalid: it must be an https URL (plain http only to this machine): the API key travels with every call',
      'EASYPOST_TIMEOUT_MS="500" is invalid: it must be a whole number from 1000 to 120000',
      'EASYPOST_MAX_RETRIES="lots" is invalid: it must be a whole number from 0 to 5',
      'EASYPOST_CARRIER_ACCOUNT_ID="usps" is invalid: a carrier account id starts with ca_',
      'EASYPOST_TEST_BALANCE="-1" is invalid: it must be a number of dollars, 0 or more',
      'EASYPOST_WEBHOOK_SECRET (value not shown) is invalid: it is only spaces',
    ]);
    expect(problems.join('\n')).not.toContain('sk_live_abcdef123456');
    const withPassword = easyPostConfigProblems({
      EASYPOST_API_KEY: KEY,
      EASYPOST_API_BASE_URL: 'https://u:pw@x.test',
    });
    expect(withPassword).toEqual([
      'EASYPOST_API_BASE_URL="https://[redacted]@x.test" is invalid: it must not carry a user name or password (the key goes in EASYPOST_API_KEY)',
    ]);
    expect(easyPostConfigProblems({ EASYPOST_API_KEY: KEY, EASYPOST_API_BASE_URL: 'http://127.0.0.1:4010' })).toEqual(
      [],
    );
    expect(() => easyPostSettings({})).toThrow(EasyPostConfigError);
    expect(() => easyPostSettings({})).toThrow('EASYPOST_API_KEY is required');
  });

  test('the registry checks the variables of the carriers CARRIERS enables', () => {
    expect(carrierConfigProblems('sandbox-usps', {})).toEqual([]);
    expect(carrierConfigProblems('easypost', {})).toEqual([
      'EASYPOST_API_KEY is required when CARRIERS includes easypost but is not set',
    ]);
    expect(carrierConfigProblems('test-parcel,easypost', { EASYPOST_API_KEY: KEY })).toEqual([]);
    expect(carrierListProblem('easypost,sandbox-usps')).toBeNull();
  });

  test('which kind of key is set is said, never the key', () => {
    expect(describeEasyPostKey(KEY)).toBe('a test key (EZTK…)');
    expect(describeEasyPostKey(PROD)).toBe('a production key (EZAK…)');
    expect(describeEasyPostKey('nope')).toBe('no valid key');
    expect(describeEasyPostSetup({ apiKey: PROD, baseUrl: 'https://api.easypost.com' })).toBe(
      'EasyPost at https://api.easypost.com with a production key (EZAK…)',
    );
  });

  test('a production key is refused without a durable store for shipment ids', () => {
    const settings = easyPostSettings({ EASYPOST_API_KEY: PROD });
    expect(() => createEasyPostCarrier({ settings, memory: createProcessMemory() })).toThrow(
      'EasyPost with a production key needs a durable PurchaseMemory',
    );
    expect(() => easyPostPlugin.create({ easypost: settings })).toThrow('durable');
  });
});

describe('the plugin', () => {
  test('sells the USPS services as usps, can do everything the port names, and is built from its settings', async () => {
    expect(CARRIER_PLUGINS.map((p) => p.id)).toContain('easypost');
    expect(() => easyPostPlugin.create({})).toThrow('the easypost carrier needs its settings');
    const carrier = easyPostPlugin.create({ easypost: easyPostSettings({ EASYPOST_API_KEY: KEY }) });
    expect(carrier.id).toBe('usps');
    expect(carrier.services()).toEqual(easyPostPlugin.services);
    for (const capability of CARRIER_CAPABILITIES) expect(supports(carrier, capability)).toBe(true);
    expect(easyPostPlugin).toMatchObject({ courier: 'usps', name: 'USPS via EasyPost' });
    await carrier.close();
  });

  test('enabled through CARRIERS, it buys through the set', async () => {
    rig = await easyPostRig();
    const set = createCarrierSet('easypost', { easypost: rig.settings, memory: rig.memory });
    const label = await set.purchaseLabel(labelRequest());
    expect(label).toMatchObject({ ok: true });
    expect(await set.balances()).toEqual([{ id: 'easypost', name: 'USPS via EasyPost', balanceCents: 1_000_000 }]);
    await set.close();
  });
});

describe('behind a carrier set with another USPS carrier', () => {
  test('a purchase EasyPost certainly did not make goes to the next carrier; one that may have been made does not', async () => {
    rig = await easyPostRig({ settings: { maxRetries: 0 } });
    const set = createCarrierSet('easypost,sandbox-usps', { easypost: rig.settings, memory: rig.memory });
    rig.fake.fail({ method: 'POST', path: '/v2/shipments' }, { status: 503, body: '' });
    expect(await set.purchaseLabel(labelRequest())).toMatchObject({ ok: true, carrierId: 'sandbox-usps' });

    rig.fake.fail({ method: 'POST', path: /\/buy$/ }, { status: 401, body: easyPostErrorBody('UNAUTHORIZED', 'no') });
    expect(await set.purchaseLabel(labelRequest())).toMatchObject({ ok: true, carrierId: 'sandbox-usps' });

    // A buy that went out and got a 500: the shipment reads unbought, but that is not certain enough to buy elsewhere.
    rig.fake.fail({ method: 'POST', path: /\/buy$/ }, { status: 500, body: '' });
    const req = labelRequest();
    const uncertain = await set.purchaseLabel(req);
    expect(uncertain).toMatchObject({ ok: false, code: 'UNAVAILABLE', retryable: true });
    expect(uncertain).not.toHaveProperty('nothingBought');
    // The retry goes back to EasyPost (the set remembers where the key went) and buys the shipment kept for it.
    expect(await set.purchaseLabel(req)).toMatchObject({ ok: true, carrierId: 'easypost' });
    expect(rig.fake.buys).toBe(1);
    await set.close();
  });
});

describe('balance and the connection check', () => {
  test('a test key reports the configured figure without asking the Users API (production keys only)', async () => {
    rig = await easyPostRig({ settings: { testBalanceCents: 12_345 } });
    expect(await rig.carrier.balance()).toBe(12_345);
    expect(rig.fake.requests.filter((q) => q.path === '/v2/users')).toHaveLength(0);
    expect(await rig.carrier.checkConnection?.()).toEqual({
      ok: true,
      detail: 'EasyPost accepted a test key (EZTK…); labels are test labels and nothing is charged.',
    });
  });

  test('a production key reads the wallet balance from the user, in cents', async () => {
    rig = await easyPostRig({ key: 'production', fake: { balance: '1234.56789' } });
    expect(await rig.carrier.balance()).toBe(123_457);
    rig.fake.setBalance('0.00000');
    expect(await rig.carrier.balance()).toBe(0);
    expect(await rig.carrier.checkConnection?.()).toEqual({
      ok: true,
      detail: 'EasyPost accepted a production key (EZAK…); real postage is charged. Wallet balance: $0.00.',
    });
  });

  test('a balance EasyPost cannot give throws, and the connection check says what happened', async () => {
    rig = await easyPostRig({ key: 'production', settings: { maxRetries: 0 } });
    rig.fake.fail({ method: 'GET', path: '/v2/users' }, { status: 500, body: '' }, 2);
    await expect(rig.carrier.balance()).rejects.toThrow('easypost balance: HTTP 500');
    expect(await rig.carrier.checkConnection?.()).toEqual({
      ok: false,
      message: 'EasyPost did not answer usably: easypost connection_check: HTTP 500.',
    });
  });
});

test('the key appears in no log line, observation, refusal, error or answer, whatever happens', async () => {
  rig = await easyPostRig({ key: 'production', settings: { timeoutMs: 1000, maxRetries: 1 } });
  const key = rig.fake.productionKey;
  const secrets = [key, Buffer.from(`${key}:`).toString('base64'), key.slice(4)];
  const seen: unknown[] = [];
  const { fake, carrier } = rig;
  fake.fail({ method: 'POST', path: /\/buy$/ }, { status: 401, body: easyPostErrorBody('UNAUTHORIZED', 'bad key') });
  seen.push(await carrier.purchaseLabel(labelRequest()));
  fake.fail({ method: 'POST', path: '/v2/shipments' }, { stall: 'before' }, 2);
  seen.push(await carrier.purchaseLabel(labelRequest()));
  fake.fail({ method: 'POST', path: '/v2/shipments' }, { malformed: true }, 2);
  seen.push(await carrier.purchaseLabel(labelRequest()));
  fake.fail({ method: 'POST', path: /\/buy$/ }, { reset: true });
  seen.push(await carrier.purchaseLabel(labelRequest()));
  seen.push(await carrier.purchaseLabel(labelRequest()));
  seen.push(await carrier.verifyAddress?.(RECIPIENT));
  seen.push(await carrier.track?.('EZ1000000001'));
  seen.push(await carrier.checkConnection?.());
  fake.fail({ method: 'GET', path: '/v2/users' }, { status: 503, body: '' }, 2);
  seen.push(await carrier.balance().catch((e: Error) => ({ name: e.name, message: e.message, stack: e.stack })));
  const broken = rig.another({ settings: { ...rig.settings, apiKey: 'EZAKwrongwrongwrongwrong' } });
  seen.push(await broken.checkConnection?.());
  seen.push(await broken.purchaseLabel(labelRequest()));

  const everything = JSON.stringify({ seen, logs: rig.logs, observed: rig.observed });
  expect(rig.logs.length).toBeGreaterThan(3);
  for (const secret of [...secrets, 'EZAKwrongwrongwrongwrong']) expect(everything).not.toContain(secret);
});
