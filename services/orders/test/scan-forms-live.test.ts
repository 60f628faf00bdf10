import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { easyPostSettings } from '@flatship/carriers';
import { type FakeEasyPost, startFakeEasyPost } from '@flatship/carriers/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Stack, startStack } from './stack';
import { orderBody, postOrder, type TestUser, user } from './support';

// SCAN forms of labels bought through a live carrier (EasyPost's fake, on loopback): the form is EasyPost's, made by
// its scan_forms call for the labels' shipments, and its PDF is the one kept and handed out. A form EasyPost refuses
// (a shipment on a form already) records nothing, and its words are shown.

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
