import type { AddressCheck } from '@flatship/proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AddressChecker } from '../src/domain/ports';
import { ADDRESS_FORM, register, startTestAuth, type TestAuth } from './support';

// Saved addresses are checked with the carrier when saved: auth asks orders itself (the `AddressChecker` port; the
// Chromium test of saved addresses runs it through orders' internal route to the sandbox) and keeps the answer with
// the address. A verdict sent by the browser is never taken.

const SUGGESTED = { street1: '1 MAIN ST', street2: 'STE 4', city: 'SPRINGFIELD', state: 'IL', zip: '62701-1234' };
const asked: { street: string; zip: string }[] = [];
let answer: (a: { zip: string }) => AddressCheck = () => ({ verdict: 'deliverable', address: SUGGESTED });
const checker: AddressChecker = {
  async check(a) {
    asked.push(a);
    return answer(a);
  },
};

let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth({ addressChecker: checker });
});
afterAll(() => t.close());

const save = (token: string, userId: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/auth/save-address/${userId}`, headers: { token }, payload });

describe('checking saved addresses', () => {
  test('a deliverable address is saved verified; the list says so', async () => {
    const me = await register(t.app);
    const res = await save(me.token, me.user._id, ADDRESS_FORM);
    expect(res.statusCode).toBe(201);
    expect(res.json().address).toMatchObject({ verified: true, check: { verdict: 'deliverable' } });
    expect(asked.at(-1)).toMatchObject({ street: '1 Main St', zip: '62701' });
    const listed = await t.app.inject({ url: `/api/auth/get-address/${me.user._id}`, headers: { token: me.token } });
    expect(listed.json().savedAddress[0]).toMatchObject({ verified: true });
  });

  test('a correction or an undeliverable address is saved as typed, not verified, with the carrier’s answer', async () => {
    const me = await register(t.app);
    answer = () => ({ verdict: 'corrected', address: SUGGESTED, corrected: ['zip'] });
    const corrected = (await save(me.token, me.user._id, { ...ADDRESS_FORM, address_id: 'A' })).json().address;
    expect(corrected).toMatchObject({
      zip: '62701',
      verified: false,
      check: { verdict: 'corrected', address: SUGGESTED },
    });

    answer = () => ({ verdict: 'undeliverable', message: 'The ZIP code 00000 does not exist.' });
    const bad = (await save(me.token, me.user._id, { ...ADDRESS_FORM, address_id: 'B', zip: '00000' })).json().address;
    expect(bad).toMatchObject({ zip: '00000', verified: false, check: { verdict: 'undeliverable' } });

    // Taking the suggestion is an update with the suggested address, checked again.
    answer = () => ({ verdict: 'deliverable', address: SUGGESTED });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/update-address/${me.user._id}/${corrected._id}`,
      headers: { token: me.token },
      payload: {
        ...ADDRESS_FORM,
        address_id: 'A',
        street: '1 MAIN ST',
        street2: 'STE 4',
        city: 'SPRINGFIELD',
        zip: '62701-1234',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().address).toMatchObject({ zip: '62701-1234', verified: true });
  });

  test('a verdict sent by the browser is ignored: only the server’s check counts', async () => {
    const me = await register(t.app);
    answer = () => ({ verdict: 'undeliverable', message: 'No such address.' });
    const res = await save(me.token, me.user._id, {
      ...ADDRESS_FORM,
      verified: true,
      check: { verdict: 'deliverable' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().address).toMatchObject({ verified: false, check: { verdict: 'undeliverable' } });
  });

  test('a check that cannot be made leaves the address saved, unchecked', async () => {
    const me = await register(t.app);
    answer = () => ({ verdict: 'unavailable', message: 'Could not check this address' });
    const res = await save(me.token, me.user._id, ADDRESS_FORM);
    expect(res.statusCode).toBe(201);
    expect(res.json().address).toMatchObject({ verified: false, check: { verdict: 'unavailable' } });
  });
});
