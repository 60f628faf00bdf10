import type { AddressCheck } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

// The single-label form checks its addresses with the carrier before anything is paid: a correction offers
// "Use suggested" and "Keep mine", an undeliverable To address needs "Ship to this address anyway", an outage lets
// the buyer go on, and a saved address checked when it was saved is not asked about again.

const SAVED = {
  _id: 'a-1',
  address_id: 'Warehouse',
  name: 'Jane Shipper',
  company: '',
  phone: '',
  street: '100 CONGRESS AVE',
  street2: '',
  city: 'AUSTIN',
  state: 'TX',
  zip: '73301-0001',
  country: 'US',
  verified: true,
};

const FRESNO = { street1: '2 OAK RD', street2: '', city: 'FRESNO', state: 'CA', zip: '93727-1234' };
let answer: (address: { street1: string; zip: string }) => AddressCheck | Response;
let checked: { street1: string; zip: string }[] = [];
let orders: Record<string, unknown>[] = [];

setupTestServer(
  http.get(api('auth/verify'), () => HttpResponse.json({ user: makeUser({ balance: 50 }) })),
  http.get(api('userServices/:userId/available'), () =>
    HttpResponse.json([{ uid: 'usps_priority_mail', name: 'USPS Priority Mail', category: 'Priority', maxWeight: 70 }]),
  ),
  http.get(api('auth/get-address/:userId'), () => HttpResponse.json({ savedAddress: [SAVED] })),
  http.post(api('orders/price/v2/bulk'), () => HttpResponse.json({ totalPrice: 8.95 })),
  http.post(api('orders/verify-address'), async ({ request }) => {
    const { address } = (await request.json()) as { address: { street1: string; zip: string } };
    checked.push(address);
    const reply = answer(address);
    return reply instanceof Response ? reply : HttpResponse.json(reply);
  }),
  http.post(api('orders/v2'), async ({ request }) => {
    orders.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json(
      {
        message: 'Label created successfully',
        data: { orderId: 'l-1', pdfName: 'l-1.pdf', tracking_number: '9', price: 8.95 },
      },
      { status: 201 },
    );
  }),
);

beforeEach(() => {
  checked = [];
  orders = [];
  answer = (a) =>
    a.zip === '93650'
      ? { verdict: 'corrected', address: FRESNO, corrected: ['zip'] }
      : { verdict: 'deliverable', address: FRESNO };
});
afterEach(() => vi.restoreAllMocks());

const region = (name: string) => within(screen.getByRole('region', { name }));

async function fillForm() {
  const app = renderApp('/main/order-label', { token: 'good-token' });
  const { user } = app;
  const select = await screen.findByRole('combobox', { name: 'Service' });
  await waitFor(() => expect(select).toBeEnabled());
  await user.selectOptions(select, 'USPS Priority Mail');
  const pkg = region('Package Information');
  for (const [label, value] of [
    ['Length', '10'],
    ['Width', '8'],
    ['Height', '4'],
    ['Weight (lbs)', '2'],
  ]) {
    await user.type(pkg.getByLabelText(label as string), value as string);
  }
  // The From address from the address book, checked when it was saved.
  await user.type(region('From Address').getByRole('combobox', { name: 'Saved address' }), 'warehouse');
  await user.keyboard('{Enter}');
  const to = region('To Address');
  await user.type(to.getByLabelText('Name'), 'Bob Buyer');
  await user.type(to.getByLabelText('Street'), '2 Oak Rd');
  await user.type(to.getByLabelText('City'), 'Fresno');
  await user.type(to.getByLabelText('ZIP code'), '93650');
  return { ...app, to };
}

describe('address checks on the single-label form', () => {
  it('suggests a correction on one line; Use suggested fills it in and needs no new check', async () => {
    const { user, to } = await fillForm();
    expect(await to.findByText('Checking address…')).toBeInTheDocument();
    expect(await to.findByText('2 OAK RD, FRESNO, CA 93727-1234')).toBeInTheDocument();
    expect(to.getByText(/We suggest:/)).toBeInTheDocument();
    await user.click(to.getByRole('button', { name: 'Use suggested' }));
    expect(to.getByLabelText('Street')).toHaveValue('2 OAK RD');
    expect(to.getByLabelText('City')).toHaveValue('FRESNO');
    expect(to.getByLabelText('ZIP code')).toHaveValue('93727-1234');
    expect(await to.findByText('Address checked')).toBeInTheDocument();
    // Only the To address was asked about, once: the saved From address was checked when it was saved.
    expect(checked).toEqual([expect.objectContaining({ street1: '2 Oak Rd', zip: '93650' })]);
    await user.click(screen.getByRole('button', { name: 'Order Label' }));
    await waitFor(() => expect(orders).toHaveLength(1));
    expect(orders[0]).toMatchObject({ receiver: { receiver_zip_postal: '93727-1234', receiver_city: 'FRESNO' } });
    expect(orders[0]).not.toHaveProperty('address_acknowledged');
  });

  it('Keep mine keeps the address as typed and buys it', async () => {
    const { user, to } = await fillForm();
    await user.click(await to.findByRole('button', { name: 'Keep mine' }));
    expect(to.getByText('Keeping your address as typed.')).toBeInTheDocument();
    expect(to.queryByText(/We suggest/)).not.toBeInTheDocument();
    expect(to.getByLabelText('ZIP code')).toHaveValue('93650');
    await user.click(screen.getByRole('button', { name: 'Order Label' }));
    await waitFor(() => expect(orders).toHaveLength(1));
    expect(orders[0]).toMatchObject({ receiver: { receiver_zip_postal: '93650', receiver_city: 'Fresno' } });
  });

  it('an undeliverable To address is a warning; buying needs "Ship to this address anyway"', async () => {
    answer = () => ({ verdict: 'undeliverable', message: 'The ZIP code 93650 does not exist.' });
    const { user, to } = await fillForm();
    const warning = await to.findByRole('alert');
    expect(warning).toHaveTextContent('USPS cannot deliver to this address. The ZIP code 93650 does not exist.');
    await user.click(screen.getByRole('button', { name: 'Order Label' }));
    expect(
      await screen.findByText(
        'USPS cannot deliver to the To address. Tick "Ship to this address anyway" to buy this label.',
      ),
    ).toBeInTheDocument();
    expect(orders).toHaveLength(0);
    const ack = to.getByRole('checkbox', { name: 'Ship to this address anyway' });
    expect(ack).toHaveFocus();
    await user.click(ack);
    await user.click(screen.getByRole('button', { name: 'Order Label' }));
    await waitFor(() => expect(orders).toHaveLength(1));
    expect(orders[0]).toMatchObject({ address_acknowledged: true, receiver: { receiver_zip_postal: '93650' } });
  });

  it('a check that cannot be made says so and does not stop the purchase', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    answer = () => HttpResponse.json({ code: 'SERVICE_UNAVAILABLE', message: 'down' }, { status: 503 });
    const { user, to } = await fillForm();
    expect(await to.findByText('Could not check this address. You can still buy the label.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Order Label' }));
    await waitFor(() => expect(orders).toHaveLength(1));
    expect(orders[0]).not.toHaveProperty('address_acknowledged');
  });
});
