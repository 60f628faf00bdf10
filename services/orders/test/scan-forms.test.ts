import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxCarrier, type ScanFormRequest } from '@flatship/carriers';
import type { LabelRequestedEvent } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { processBulkLabels } from '../src/domain/bulk/process-bulk-label';
import type { CarrierPort } from '../src/domain/ports';
import { bulkItems, newOrderId, processBulk } from './bulk-support';
import { type Stack, startStack } from './stack';
import { orderBody, outboxRows, postOrder, type TestUser, user } from './support';

// SCAN forms through the orders app on the sandbox carrier (which renders its own PS Form 5630) and real PostgreSQL:
// which labels go on a form, one form per label at most, the same form when asked again or twice at once, and
// nobody else's order or form.

const sandbox = createSandboxCarrier();
const formCalls: ScanFormRequest[] = [];
/** The carrier's answer to the next form, when set: a refusal in its words. */
let refuseNext: string | null = null;
/** While set, forms wait for it: two requests caught while the carrier is still answering the first. */
let gate: Promise<void> | null = null;
/** When set, the form call that many calls from now fails as a connection would (thrown, not a refusal). */
let breakAfter: number | null = null;
/** Purchases for this recipient are refused: a bulk row that failed. */
const REFUSED = 'Refused Receiver';
const carrier: CarrierPort = {
  purchaseLabel: async (req) =>
    req.to.name === REFUSED
      ? { ok: false, message: 'The carrier refused this address.', retryable: false }
      : sandbox.purchaseLabel(req),
  voidLabel: (req) => sandbox.voidLabel!(req),
  refundStatus: (req) => sandbox.refundStatus!(req),
  async createScanForm(req) {
    formCalls.push(req);
    if (gate) await gate;
    if (breakAfter !== null && breakAfter-- === 0) {
      breakAfter = null;
      throw new Error('socket hang up');
    }
    if (refuseNext) {
      const message = refuseNext;
      refuseNext = null;
      return { ok: false, message, retryable: false, code: 'SCAN_FORM_REFUSED' };
    }
    return sandbox.createScanForm!(req);
  },
};

let s: Stack;
let ann: TestUser;
let bob: TestUser;
let admin: TestUser;
let work: string;

const post = (url: string, as: TestUser, payload: object = {}) =>
  s.app.inject({ method: 'POST', url, headers: { token: as.token }, payload });
const today = (as: TestUser, userId = as.id, payload: object = {}) =>
  post(`/api/orders/scan-forms/today/${userId}`, as, payload);
const forOrder = (orderId: string, as: TestUser) => post(`/api/orders/scan-forms/bulk/${orderId}`, as);
const list = async (as: TestUser, userId = as.id) =>
  (await s.app.inject({ url: `/api/orders/scan-forms/${userId}`, headers: { token: as.token } })).json();

async function buy(who: TestUser, over: Parameters<typeof orderBody>[1] = {}) {
  const res = await postOrder(s, who, orderBody(who.id, over));
  expect(res.statusCode, res.body).toBe(201);
  return (await s.db('labels').where({ id: res.json().data.orderId }).first()) as {
    id: string;
    tracking_number: string;
  };
}
const formOf = async (labelId: string) =>
  ((await s.db('labels').where({ id: labelId }).first('scan_form_id')) as { scan_form_id: string | null }).scan_form_id;

/** A bulk order of `n` rows, bought by the label worker's own use case as it runs it. */
async function boughtBulkOrder(
  who: TestUser,
  n: number,
  edit: (items: ReturnType<typeof bulkItems>) => void = () => {},
) {
  const orderId = await newOrderId(s, who);
  const items = bulkItems(n);
  edit(items);
  const submitted = await processBulk(s, who, { orderId, orderData: items, fileName: 'batch.csv' });
  expect(submitted.statusCode, submitted.body).toBe(202);
  const events = (await outboxRows(s))
    .filter((e) => e.topic === 'label.requested' && e.value.bulkOrderId === orderId)
    .map((e) => e.value as unknown as LabelRequestedEvent);
  expect(events).toHaveLength(n);
  await processBulkLabels({ ...s.domain, carrier, progress: { notify() {}, finished() {} } }, events);
  const refused = items.filter((i) => i.receiver.receiver_name === REFUSED).length;
  const rows = await s.db('labels').where({ bulk_order_id: orderId, status: 'completed' });
  expect(rows).toHaveLength(n - refused);
  return orderId;
}

/** The form's PDF as its owner downloads it: a download link, then the file. */
async function download(formId: string, as: TestUser) {
  const link = await post('/api/orders/download-token', as, { path: `/api/orders/download/scan-form/${formId}` });
  if (link.statusCode !== 200) return { status: link.statusCode, body: Buffer.alloc(0), json: link.json() };
  const res = await s.app.inject({ url: link.json().url });
  return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
}

function hasTool(tool: string) {
  try {
    execFileSync(tool, ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  s = await startStack({ carrier });
  ann = user(s);
  bob = user(s);
  admin = user(s, 'admin');
  await s.setBalance(ann.id, 1_000_00);
  await s.setBalance(bob.id, 1_000_00);
  work = await mkdtemp(join(tmpdir(), 'scan-forms-'));
}, 60_000);
afterAll(async () => {
  await s?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a SCAN form for today’s single labels', () => {
  test('lists every usable label of today once, with one barcode for the form, and asking again gives the same form', async () => {
    const first = await buy(ann);
    const second = await buy(ann);
    const refunded = await buy(ann);
    const refunding = await buy(ann);
    const yesterday = await buy(ann);
    const refund = await post(`/api/orders/labels/${refunded.id}/refund`, ann);
    expect(refund.json().refundStatus).toBe('refunded');
    // A refund asked of its carrier and not yet answered: the label may yet be void, so it goes on no form.
    await s
      .db('labels')
      .where({ id: refunding.id })
      .update({ refund_status: 'requested', refund_requested_at: s.db.fn.now(), refund_requested_by: ann.id });
    await s
      .db('labels')
      .where({ id: yesterday.id })
      .update({ created_at: s.db.raw("now() - interval '1 day'") });
    const bulkOrder = await boughtBulkOrder(ann, 2);

    const before = await list(ann);
    expect(before.unmanifestedToday).toBe(2);
    expect(before.unmanifestedByOrder).toEqual({ [bulkOrder]: 2 });
    const calls = formCalls.length;

    const res = await today(ann);
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json();
    expect(reply).toMatchObject({ message: 'SCAN form created for 2 labels.', created: 1, refused: [] });
    expect(reply.forms).toHaveLength(1);
    const form = reply.forms[0];
    expect(form).toMatchObject({
      scope: 'day',
      bulkOrderId: null,
      labelCount: 2,
      shipDate: before.today,
      fromText: 'Ada Sender, Acme, 1 Main St, Austin, TX 73301',
      formNumber: expect.stringMatching(/^SF\d{12}$/),
    });
    expect(formCalls.length).toBe(calls + 1);
    expect(
      formCalls
        .at(-1)
        ?.labels.map((l) => l.trackingNumber)
        .sort(),
    ).toEqual([first.tracking_number, second.tracking_number].sort());
    expect(await formOf(first.id)).toBe(form._id);
    expect(await formOf(second.id)).toBe(form._id);
    for (const other of [refunded, refunding, yesterday]) expect(await formOf(other.id)).toBeNull();

    // The PDF the carrier made, stored and handed to its owner: its one barcode is the form's number.
    const pdf = await download(form._id, ann);
    expect(pdf.status).toBe(200);
    expect(pdf.headers?.['content-type']).toContain('application/pdf');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    if (hasTool('pdftotext')) {
      await writeFile(join(work, 'today.pdf'), pdf.body);
      const text = execFileSync('pdftotext', ['-layout', join(work, 'today.pdf'), '-'], { encoding: 'utf8' }).replace(
        /\s/g,
        '',
      );
      expect(text).toContain('PSForm5630');
      expect(text).toContain(first.tracking_number);
      expect(text).toContain(second.tracking_number);
      expect(text).not.toContain(refunded.tracking_number);
    }
    if (hasTool('pdftoppm') && hasTool('zbarimg')) {
      execFileSync('pdftoppm', ['-png', '-r', '150', '-singlefile', join(work, 'today.pdf'), join(work, 'today')]);
      const scanned = execFileSync('zbarimg', ['-q', '--raw', join(work, 'today.png')], { encoding: 'utf8' }).trim();
      expect(scanned).toBe(form.formNumber);
    }

    // Asked again: the stored form, nothing asked of the carrier.
    const again = await today(ann);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      message: 'These labels are on a SCAN form already. Here it is.',
      created: 0,
      forms: [form],
    });
    expect(formCalls.length).toBe(calls + 1);
    expect((await list(ann)).unmanifestedToday).toBe(0);

    // A label bought later goes on a form of its own: none is ever on two.
    const later = await buy(ann);
    const next = (await today(ann)).json();
    expect(next.created).toBe(1);
    expect(next.forms).toHaveLength(2);
    expect(next.forms[1].labelCount).toBe(1);
    expect(formCalls.at(-1)?.labels.map((l) => l.trackingNumber)).toEqual([later.tracking_number]);
    expect(await formOf(first.id)).toBe(form._id);
    expect((await list(ann)).forms.map((f: { _id: string }) => f._id)).toEqual([next.forms[1]._id, form._id]);
  });

  test('two requests at once make one form, asked of the carrier once', async () => {
    const cy = user(s);
    await s.setBalance(cy.id, 100_00);
    await buy(cy);
    await buy(cy);
    let open!: () => void;
    gate = new Promise<void>((r) => {
      open = r;
    });
    const calls = formCalls.length;
    const answers = Promise.all(Array.from({ length: 4 }, () => today(cy)));
    // The first reached the carrier; the others wait their turn behind it.
    await expect.poll(() => formCalls.length).toBe(calls + 1);
    gate = null;
    open();
    const replies = await answers;
    for (const r of replies) expect(r.statusCode, r.body).toBe(200);
    const ids = new Set(replies.flatMap((r) => r.json().forms.map((f: { _id: string }) => f._id)));
    expect(ids.size).toBe(1);
    expect(replies.map((r) => r.json().created).sort()).toEqual([0, 0, 0, 1]);
    expect(formCalls.length).toBe(calls + 1);
    expect(await s.db('scan_forms').where({ user_id: cy.id }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  test('a label is on one form at most, whatever writes it', async () => {
    const dee = user(s);
    await s.setBalance(dee.id, 100_00);
    const label = await buy(dee);
    const form = (await today(dee)).json().forms[0];
    const other = await s.domain.scanForms.insert({
      id: '00000000-0000-4000-8000-00000000f0f0',
      userId: dee.id,
      scope: 'day',
      bulkOrderId: null,
      carrierId: 'sandbox-usps',
      carrierFormId: 'SF000000000000',
      idempotencyKey: 'scan-form:test-other',
      sender: { name: 'Dee', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
      shipDate: form.shipDate,
      labelCount: 1,
      pdfKey: 'scan-forms/none.pdf',
    });
    // Straight through the repository, outside any request, as a second writer would: the label stays where it is.
    expect(await s.domain.scanForms.attach(other.id, [label.id])).toBe(0);
    expect(await formOf(label.id)).toBe(form._id);
    // A row never bought can join no form: the database refuses it.
    await expect(
      s
        .db('labels')
        .where({ id: label.id })
        .update({ status: 'pending', tracking_number: null, pdf_name: null, scan_form_id: other.id }),
    ).rejects.toThrow(/labels_scan_form_bought_check/);
  });

  test('nothing to put on a form, a bad time zone, and someone else’s labels are refused with a reason', async () => {
    const eve = user(s);
    const none = await today(eve);
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({
      code: 'ORDERS_SCAN_FORM_NO_LABELS',
      message:
        'There are no single labels from today to put on a SCAN form: only labels bought today that are not refunded, being refunded, or on a form already can go on one.',
    });
    const zone = await today(ann, ann.id, { timeZone: 'Mars/Olympus' });
    expect(zone.statusCode).toBe(400);
    expect(zone.json().message).toBe("timeZone must be a time zone name such as America/Chicago; got 'Mars/Olympus'");
    expect((await today(bob, ann.id)).statusCode).toBe(403);
    expect(
      (await s.app.inject({ url: `/api/orders/scan-forms/${ann.id}`, headers: { token: bob.token } })).statusCode,
    ).toBe(403);
  });

  test('today is the customer’s day, in the time zone the browser names', async () => {
    const fay = user(s);
    await s.setBalance(fay.id, 100_00);
    const label = await buy(fay);
    const zone = 'Pacific/Kiritimati'; // UTC+14: its "today" is rarely the UTC day's, and the check goes by it.
    const listed = await list(fay);
    const there = (
      await s.app.inject({ url: `/api/orders/scan-forms/${fay.id}?timeZone=${zone}`, headers: { token: fay.token } })
    ).json();
    expect(listed.unmanifestedToday).toBe(1);
    expect(there.unmanifestedToday).toBe(1);
    const res = await today(fay, fay.id, { timeZone: zone });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().forms[0].shipDate).toBe(there.today);
    expect(await formOf(label.id)).toBe(res.json().forms[0]._id);
  });
});

describe('time zones named as the browser’s runtime names them', () => {
  // The day is worked out where the zone is read; the database is given instants, never a zone name it may
  // read otherwise (IST is India to the browser and Israel to PostgreSQL) or not know at all (AGT).
  const listIn = async (as: TestUser, zone: string) =>
    s.app.inject({
      url: `/api/orders/scan-forms/${as.id}?timeZone=${encodeURIComponent(zone)}`,
      headers: { token: as.token },
    });

  test('a zone the runtime knows and the database does not is used, not a 500', async () => {
    const gus = user(s);
    await s.setBalance(gus.id, 100_00);
    const label = await buy(gus);
    const listed = await listIn(gus, 'AGT');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().unmanifestedToday).toBe(1);
    const res = await today(gus, gus.id, { timeZone: 'US/Pacific-New' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await formOf(label.id)).toBe(res.json().forms[0]._id);
  });

  test('IST is the day in India, for the count as for the form', async () => {
    const ivy = user(s);
    await s.setBalance(ivy.id, 100_00);
    const label = await buy(ivy);
    const day = (await listIn(ivy, 'IST')).json().today as string;
    // Bought in India's first minute of that day: still the day before in Israel.
    await s
      .db('labels')
      .where({ id: label.id })
      .update({ created_at: new Date(`${day}T00:00:00+05:30`) });
    const listed = (await listIn(ivy, 'IST')).json();
    expect(listed.today).toBe(day);
    expect(listed.unmanifestedToday).toBe(1);
    const res = await today(ivy, ivy.id, { timeZone: 'IST' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await formOf(label.id)).toBe(res.json().forms[0]._id);
  });
});

describe('a SCAN form for a bulk order', () => {
  let orderId: string;

  test('one form per From address, every bought label on one, and asking again gives the same forms', async () => {
    orderId = await boughtBulkOrder(ann, 5, (items) => {
      if (items[2]) items[2].receiver = { ...items[2].receiver, receiver_name: REFUSED };
      for (const i of [3, 4]) {
        const item = items[i];
        if (item) item.sender = { ...item.sender, sender_address1: '9 Warehouse Rd', sender_zip_postal: '78701' };
      }
    });
    const rows = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
    const refund = await post(`/api/orders/labels/${rows[1].id}/refund`, ann);
    expect(refund.json().refundStatus).toBe('refunded');

    const res = await forOrder(orderId, ann);
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json();
    expect(reply.message).toBe('2 SCAN forms created for 3 labels: one per carrier, From address and day.');
    expect(reply.forms.map((f: { labelCount: number; fromText: string }) => [f.labelCount, f.fromText])).toEqual([
      [1, 'Ada Sender, Acme, 1 Main St, Austin, TX 73301'],
      [2, 'Ada Sender, Acme, 9 Warehouse Rd, Austin, TX 78701'],
    ]);
    for (const f of reply.forms) expect(f).toMatchObject({ scope: 'bulk', bulkOrderId: orderId });
    const onForms = await s.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index').pluck('scan_form_id');
    // Row 2 (refunded) and row 3 (its purchase failed) are on none.
    expect(onForms).toEqual([reply.forms[0]._id, null, null, reply.forms[1]._id, reply.forms[1]._id]);

    const again = await forOrder(orderId, ann);
    expect(again.json()).toMatchObject({ created: 0, forms: reply.forms });
    expect((await list(ann)).unmanifestedByOrder[orderId]).toBeUndefined();
    // The order's forms are not the day's: today's single labels are still their own.
    expect((await today(ann)).json().forms.every((f: { scope: string }) => f.scope === 'day')).toBe(true);
  });

  test('a request cut off after one of its forms keeps neither that form nor its PDF; asking again makes them all', async () => {
    const who = user(s);
    await s.setBalance(who.id, 500_00);
    const otherSender = { sender_address1: '9 Warehouse Rd', sender_zip_postal: '78701' };
    const bulk = await boughtBulkOrder(who, 3, (items) => {
      const item = items[2];
      if (item) item.sender = { ...item.sender, ...otherSender };
    });
    const pdfsOf = async () => {
      const { readdir } = await import('node:fs/promises');
      return readdir(join(s.filesDir, 'scan-forms', who.id)).catch(() => [] as string[]);
    };
    // The first group's form is made and written; the carrier fails on the second, so the request fails whole.
    breakAfter = 1;
    const cut = await forOrder(bulk, who);
    expect(cut.statusCode).toBe(500);
    expect(await s.db('scan_forms').where({ user_id: who.id })).toEqual([]);
    expect(await pdfsOf()).toEqual([]);

    const res = await forOrder(bulk, who);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().created).toBe(2);
    const forms = await s.db('scan_forms').where({ user_id: who.id }).pluck('id');
    expect((await pdfsOf()).sort()).toEqual(forms.map((id) => `${id}.pdf`).sort());
  });

  test('someone else’s order and form are not found; an admin may make and read them', async () => {
    const res = await forOrder(orderId, bob);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Order not found' });
    expect((await forOrder('00000000-0000-4000-8000-000000000000', ann)).statusCode).toBe(404);
    expect((await forOrder('not-an-order', ann)).statusCode).toBe(400);
    const form = (await forOrder(orderId, admin)).json().forms[0];
    expect(form.bulkOrderId).toBe(orderId);
    const theirs = await download(form._id, bob);
    expect(theirs.status).toBe(404);
    expect((await download(form._id, admin)).status).toBe(200);
    expect((await download('00000000-0000-4000-8000-000000000000', ann)).status).toBe(404);
    // With a session token in the header, as on every call: the same rule.
    const direct = (as: TestUser) =>
      s.app.inject({ url: `/api/orders/download/scan-form/${form._id}`, headers: { token: as.token } });
    expect((await direct(bob)).statusCode).toBe(404);
    expect((await direct(ann)).statusCode).toBe(200);
  });

  test('a carrier that refuses records nothing and its words are shown; nothing is charged for a form', async () => {
    const gus = user(s);
    await s.setBalance(gus.id, 100_00);
    const order = await boughtBulkOrder(gus, 2);
    const balance = await s.balanceCents(gus.id);
    const words = 'The SCAN form could not be made: some labels cannot go on a SCAN form (already on one).';
    refuseNext = words;
    const refused = await forOrder(order, gus);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ code: 'ORDERS_SCAN_FORM_REFUSED', message: words });
    expect(await s.db('scan_forms').where({ bulk_order_id: order })).toEqual([]);
    expect(await s.db('labels').where({ bulk_order_id: order }).whereNotNull('scan_form_id')).toEqual([]);
    const made = await forOrder(order, gus);
    expect(made.statusCode).toBe(200);
    expect(made.json().forms[0].labelCount).toBe(2);
    expect(await s.balanceCents(gus.id)).toBe(balance);
  });
});
