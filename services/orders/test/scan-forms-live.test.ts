import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { easyPostSettings } from '@flatship/carriers';
import { type FakeEasyPost, type FakeUsps, startFakeEasyPost, startFakeUsps } from '@flatship/carriers/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack } from './stack';
import { orderBody, postOrder, type TestUser, user } from './support';

// SCAN forms of labels bought through live carriers (the fakes of EasyPost and USPS, on loopback): the form is the
// carrier's, made by its own call for the labels, and its PDF is the one kept and handed out. A form the carrier
// refuses (a label on a form already) records nothing, and its words are shown.

let fake: FakeEasyPost;
let s: Stack;
let ann: TestUser;

beforeAll(async () => {
  fake = await startFakeEasyPost();
  s = await startStack({
    carriers: 'easypost',
    carrierSettings: {
      easypost: easyPostSettings({
        EASYPOST_API_KEY: fake.productionKey,
        EASYPOST_API_BASE_URL: fake.url,
        EASYPOST_TIMEOUT_MS: 2000,
        EASYPOST_MAX_RETRIES: 0,
      }),
    },
  });
  ann = user(s);
  await s.setBalance(ann.id, 100_00);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const buy = async () => {
  const res = await postOrder(s, ann, orderBody(ann.id));
  expect(res.statusCode, res.body).toBe(201);
  return (await s.db('labels').where({ id: res.json().data.orderId }).first()) as {
    id: string;
    carrier_ref: string;
    tracking_number: string;
  };
};
const today = () =>
  s.app.inject({
    method: 'POST',
    url: `/api/orders/scan-forms/today/${ann.id}`,
    headers: { token: ann.token },
    payload: {},
  });
const formRequests = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v2/scan_forms');

test('the form is EasyPost’s, asked for the labels’ shipments, and its PDF is the one kept', async () => {
  const a = await buy();
  const b = await buy();
  const res = await today();
  expect(res.statusCode, res.body).toBe(200);
  const form = res.json().forms[0];
  expect(form).toMatchObject({ carrierId: 'easypost', labelCount: 2, formNumber: expect.stringMatching(/^sf_/) });
  expect(formRequests()).toHaveLength(1);
  expect(formRequests()[0]?.body).toEqual({ shipments: [{ id: a.carrier_ref }, { id: b.carrier_ref }] });

  const link = await s.app.inject({
    method: 'POST',
    url: '/api/orders/download-token',
    headers: { token: ann.token },
    payload: { path: `/api/orders/download/scan-form/${form._id}` },
  });
  const pdf = await s.app.inject({ url: link.json().url });
  expect(pdf.statusCode).toBe(200);
  expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  // EasyPost's own form (the fake writes its id and the codes into it), not one rendered here.
  const dir = await mkdtemp(join(tmpdir(), 'scan-form-live-'));
  try {
    await writeFile(join(dir, 'form.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', [join(dir, 'form.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain(`SCAN form ${form.formNumber}`);
    expect(text).toContain(a.tracking_number);
    expect(text).toContain(b.tracking_number);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  // Asked again: the form kept, EasyPost not asked.
  expect((await today()).json()).toMatchObject({ created: 0, forms: [form] });
  expect(formRequests()).toHaveLength(1);
});

test('EasyPost refusing a label already on a form records nothing, and says why', async () => {
  const c = await buy();
  // The shipment was put on a form at EasyPost by other means (its dashboard).
  const outside = await fetch(`${fake.url}/v2/scan_forms`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${fake.productionKey}:`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ shipments: [{ id: c.carrier_ref }] }),
  });
  expect(outside.status).toBe(201);
  const res = await today();
  expect(res.statusCode).toBe(422);
  expect(res.json()).toEqual({
    code: 'ORDERS_SCAN_FORM_REFUSED',
    message:
      'The SCAN form could not be made: a label in it cannot go on this form (sent from another address, already on a form, refunded, or dated later).',
  });
  expect(await s.db('labels').where({ id: c.id }).first('scan_form_id')).toEqual({ scan_form_id: null });
  expect(await s.db('scan_forms').where({ user_id: ann.id })).toHaveLength(1);
});

describe('USPS', () => {
  let usps: FakeUsps;
  let u: Stack;
  let bea: TestUser;
  beforeAll(async () => {
    usps = await startFakeUsps({ balanceCents: 10_000_000 });
    u = await startStack({
      carriers: 'usps',
      carrierSettings: {
        usps: {
          USPS_API_BASE_URL: usps.url,
          USPS_CLIENT_ID: usps.credentials.clientId,
          USPS_CLIENT_SECRET: usps.credentials.clientSecret,
          USPS_CRID: usps.credentials.crid,
          USPS_MID: usps.credentials.mid,
          USPS_MANIFEST_MID: usps.credentials.manifestMid,
          USPS_EPS_ACCOUNT: usps.credentials.epsAccount,
        },
      },
    });
    bea = user(u);
    await u.setBalance(bea.id, 100_00);
  }, 60_000);
  afterAll(async () => {
    await u?.close();
    await usps?.close();
  });
  const buyAt = async () => {
    const res = await postOrder(u, bea, orderBody(bea.id));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.tracking_number as string;
  };
  const todayAt = () =>
    u.app.inject({
      method: 'POST',
      url: `/api/orders/scan-forms/today/${bea.id}`,
      headers: { token: bea.token },
      payload: {},
    });

  test('the form is USPS’s SCAN form for the labels, kept as USPS made it; labels USPS has on a form are refused', async () => {
    const first = await buyAt();
    const second = await buyAt();
    const res = await todayAt();
    expect(res.statusCode, res.body).toBe(200);
    const form = res.json().forms[0];
    expect(form).toMatchObject({ carrierId: 'usps', labelCount: 2, formNumber: expect.stringMatching(/^9475\d{18}$/) });
    expect(usps.labels.get(first)?.manifested).toBe(true);
    expect(usps.labels.get(second)?.manifested).toBe(true);
    const stored = await u.db('scan_forms').where({ id: form._id }).first('pdf_key');
    const pdf = await readFile(join(u.filesDir, stored.pdf_key));
    const dir = await mkdtemp(join(tmpdir(), 'scan-form-usps-'));
    try {
      await writeFile(join(dir, 'form.pdf'), pdf);
      const text = execFileSync('pdftotext', [join(dir, 'form.pdf'), '-'], { encoding: 'utf8' }).replace(/\s/g, '');
      expect(text).toContain('IssuedbyUSPS');
      expect(text).toContain(form.formNumber);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    // A label put on a form at USPS by other means: USPS refuses it, nothing is recorded.
    const third = await buyAt();
    usps.manifest(third);
    const refused = await todayAt();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('ORDERS_SCAN_FORM_REFUSED');
    expect(refused.json().message).toMatch(/^The SCAN form could not be made: /);
    expect(await u.db('labels').where({ tracking_number: third }).first('scan_form_id')).toEqual({
      scan_form_id: null,
    });
    expect(await u.db('scan_forms').where({ user_id: bea.id })).toHaveLength(1);
  });
});
