import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, downloadLinkHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { stubWindowOpen } from '../../test/tabs';
import { PRICE_DEBOUNCE_MS } from './order-label-saga';

const SERVICES = [
  { uid: 'svc-ground', name: 'USPS Ground Advantage', category: 'Ground', maxWeight: 20 },
  { uid: 'svc-priority', name: 'USPS Priority Mail', category: 'Priority', maxWeight: 70 },
  { uid: 'svc-express', name: 'USPS Priority Mail Express', category: 'Priority' },
  { uid: 'svc-letter', name: 'First-Class Letter' },
];

const HOME = {
  _id: 'a-1',
  address_id: 'Warehouse',
  name: 'Jane Shipper',
  company: 'Acme',
  phone: '512-555-0100',
  street: '100 Congress Ave',
  street2: 'Suite 5',
  city: 'Austin',
  state: 'TX',
  zip: '73301',
  country: 'US',
};
const SHOP = { ...HOME, _id: 'a-2', address_id: 'Shop', name: 'Bob Buyer', city: 'Denver', state: 'CO', zip: '80202' };

let verifyCalls = 0;
let quotes: { userId: string; shipments: { service_name: string; package: { package_weight: number } }[] }[] = [];

const server = setupTestServer(
  http.get(api('auth/verify'), ({ request }) => {
    verifyCalls += 1;
    return request.headers.get('token') === 'good-token'
      ? HttpResponse.json({ user: makeUser({ balance: verifyCalls > 1 ? 4.25 : 12.5 }) })
      : HttpResponse.json({ code: 'AUTH_INVALID_TOKEN', message: 'Invalid token' }, { status: 401 });
  }),
  http.get(api('userServices/:userId/available'), () => HttpResponse.json(SERVICES)),
  http.get(api('auth/get-address/:userId'), () => HttpResponse.json({ savedAddress: [HOME, SHOP] })),
  // The form's address checks (address-check.test.tsx tests them): every address is fine here.
  http.post(api('orders/verify-address'), () => HttpResponse.json({ verdict: 'deliverable' })),
  http.post(api('orders/price/v2/bulk'), async ({ request }) => {
    const body = (await request.json()) as (typeof quotes)[number];
    quotes.push(body);
    return HttpResponse.json({ totalPrice: 4 + (body.shipments[0]?.package.package_weight ?? 0) / 4 });
  }),
);

beforeEach(() => {
  verifyCalls = 0;
  quotes = [];
});
afterEach(() => vi.restoreAllMocks());

const region = (name: string) => within(screen.getByRole('region', { name }));

async function openPage() {
  const app = renderApp('/main/order-label', { token: 'good-token' });
  const select = await screen.findByRole('combobox', { name: 'Service' });
  await waitFor(() => expect(select).toBeEnabled());
  return { ...app, select };
}

type App = Awaited<ReturnType<typeof openPage>>;

async function fillForm(app: App) {
  const { user } = app;
  const pkg = region('Package Information');
  await user.selectOptions(app.select, 'USPS Priority Mail');
  await user.type(pkg.getByLabelText('Length'), '10');
  await user.type(pkg.getByLabelText('Width'), '8');
  await user.type(pkg.getByLabelText('Height'), '4');
  await user.type(pkg.getByLabelText('Weight (lbs)'), '2.5');
  await user.type(pkg.getByLabelText('Description'), 'Books');
  await user.type(pkg.getByLabelText('SKU Number'), 'SKU-9');
  await user.click(pkg.getByLabelText('Require a signature on delivery'));
  await user.click(pkg.getByLabelText('Saturday Delivery'));
  for (const [card, who] of [
    ['From Address', { name: 'Jane Shipper', street: '1 Main St', city: 'Austin', zip: '73301' }],
    ['To Address', { name: 'Bob Buyer', street: '2 Oak Rd', city: 'Fresno', zip: '93650' }],
  ] as const) {
    const r = region(card);
    await user.type(r.getByLabelText('Name'), who.name);
    await user.type(r.getByLabelText('Street'), who.street);
    await user.type(r.getByLabelText('City'), who.city);
    await user.type(r.getByLabelText('ZIP code'), who.zip);
  }
}

const EXPECTED_PAYLOAD = {
  user_id: 'u-1',
  service_name: 'USPS Priority Mail',
  manifested: false,
  courier: 'usps',
  sender: {
    sender_name: 'Jane Shipper',
    sender_phone: '',
    sender_company: '',
    sender_address1: '1 Main St',
    sender_address2: '',
    sender_city: 'Austin',
    sender_state_province: 'TX',
    sender_zip_postal: '73301',
    sender_country: 'US',
  },
  receiver: {
    receiver_name: 'Bob Buyer',
    receiver_phone: '',
    receiver_company: '',
    receiver_address1: '2 Oak Rd',
    receiver_address2: '',
    receiver_city: 'Fresno',
    receiver_state_province: 'CA',
    receiver_zip_postal: '93650',
    receiver_country: 'US',
  },
  package: {
    package_length: 10,
    package_width: 8,
    package_height: 4,
    package_weight: 2.5,
    package_weight_unit: 'LB',
    package_description: 'Books',
    package_reference1: '1',
    package_reference2: 'SKU-9',
  },
};

interface Received {
  body: unknown;
  key: string | null;
}

function orderHandler(received: Received[], reply: () => Promise<Response> | Response) {
  return http.post(api('orders/v2'), async ({ request }) => {
    received.push({ body: await request.json(), key: request.headers.get('Idempotency-Key') });
    return reply();
  });
}

describe('Order Label page', () => {
  it('lists the services grouped by category, with Other for services without one', async () => {
    const { select } = await openPage();
    const groups = [...select.querySelectorAll('optgroup')].map((g) => [
      g.label,
      [...g.querySelectorAll('option')].map((o) => o.textContent),
    ]);
    expect(groups).toEqual([
      ['Ground', ['USPS Ground Advantage']],
      ['Priority', ['USPS Priority Mail', 'USPS Priority Mail Express']],
      ['Other', ['First-Class Letter']],
    ]);
  });

  it('shows an empty service list and a toast when services cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get(api('userServices/:userId/available'), () => new HttpResponse(null, { status: 500 })));
    const { select } = await openPage();
    expect(await screen.findByText('Error loading services')).toBeInTheDocument();
    expect(select.querySelectorAll('optgroup')).toHaveLength(0);
  });

  it('fills the From card from a saved address picked by typing and Enter', async () => {
    const { user } = await openPage();
    const from = region('From Address');
    const picker = from.getByRole('combobox', { name: 'Saved address' });
    await user.type(picker, 'denver');
    expect(from.getAllByRole('option')).toHaveLength(1);
    await user.keyboard('{Enter}');

    expect(from.getByLabelText('Name')).toHaveValue('Bob Buyer');
    expect(from.getByLabelText('Company')).toHaveValue('Acme');
    expect(from.getByLabelText('Phone')).toHaveValue('512-555-0100');
    expect(from.getByLabelText('Street')).toHaveValue('100 Congress Ave');
    expect(from.getByLabelText('Street 2 (apartment, suite)')).toHaveValue('Suite 5');
    expect(from.getByLabelText('City')).toHaveValue('Denver');
    expect(from.getByRole('combobox', { name: 'State' })).toHaveValue('CO — Colorado');
    expect(from.getByLabelText('ZIP code')).toHaveValue('80202');
    expect(from.getByLabelText('Country')).toHaveValue('US');
    expect(from.getByLabelText('Country')).toHaveAttribute('readonly');
    // The other card is untouched.
    expect(region('To Address').getByLabelText('Name')).toHaveValue('');

    await user.clear(picker);
    await user.type(picker, 'nowhere');
    expect(from.getByText('No options found')).toBeInTheDocument();
  });

  it("says 'No saved addresses found' when there are none or they cannot be loaded", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get(api('auth/get-address/:userId'), () => HttpResponse.error()));
    await openPage();
    expect(await region('From Address').findByText('No saved addresses found')).toBeInTheDocument();
    expect(region('To Address').getByText('No saved addresses found')).toBeInTheDocument();
  });

  it('starts the states on TX and CA; the sender picks from the 50 states, the recipient also from DC, territories and military posts', async () => {
    const { user } = await openPage();
    const fromState = region('From Address').getByRole('combobox', { name: 'State' });
    const toState = region('To Address').getByRole('combobox', { name: 'State' });
    expect(fromState).toHaveValue('TX — Texas');
    expect(toState).toHaveValue('CA — California');
    await user.click(fromState);
    expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(50);
    await user.keyboard('{Escape}');
    await user.click(toState);
    expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(59);
    await user.keyboard('{Escape}');
    await user.clear(toState);
    await user.type(toState, 'nc');
    // The exact code first, then names containing the letters.
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]).toHaveTextContent('NC — North Carolina');
    await user.keyboard('{Enter}');
    expect(toState).toHaveValue('NC — North Carolina');
    await user.clear(toState);
    await user.type(toState, 'puerto rico');
    await user.keyboard('{Enter}');
    expect(toState).toHaveValue('PR — Puerto Rico');
    await user.clear(fromState);
    await user.type(fromState, 'puerto rico');
    expect(screen.getByText('No options found')).toBeInTheDocument();
  });

  it("resets a weight above the chosen service's maximum to that maximum", async () => {
    const { user, select } = await openPage();
    const weight = region('Package Information').getByLabelText('Weight (lbs)');
    await user.type(weight, '95');
    expect(weight).toHaveValue(70);

    await user.selectOptions(select, 'USPS Ground Advantage');
    expect(weight).toHaveValue(20);
    await user.clear(weight);
    await user.type(weight, '25');
    expect(weight).toHaveValue(20);
    expect(weight).toHaveAttribute('max', '20');
  });

  it('asks for the price again when the service or the weight changes, with weight 1 when empty', async () => {
    // A debounced quote from the previous test's page may still arrive: let it land first.
    await delay(PRICE_DEBOUNCE_MS + 100);
    quotes = [];
    const { user, select } = await openPage();
    expect(screen.getByTestId('label-price')).toHaveTextContent('$0.00');

    await user.selectOptions(select, 'USPS Priority Mail');
    await waitFor(() => expect(screen.getByTestId('label-price')).toHaveTextContent('$4.25'));
    expect(quotes).toEqual([
      { userId: 'u-1', shipments: [{ service_name: 'USPS Priority Mail', package: { package_weight: 1 } }] },
    ]);

    await user.type(region('Package Information').getByLabelText('Weight (lbs)'), '12');
    await waitFor(() => expect(screen.getByTestId('label-price')).toHaveTextContent('$7.00'));
    // Typed quickly, "1" then "12" is one request for 12.
    expect(quotes.map((q) => q.shipments[0]?.package.package_weight)).toEqual([1, 12]);

    await user.selectOptions(select, 'USPS Ground Advantage');
    await waitFor(() => expect(quotes).toHaveLength(3));
    expect(quotes[2]?.shipments[0]).toEqual({ service_name: 'USPS Ground Advantage', package: { package_weight: 12 } });
  });

  it('shows a price of $0.00 when the price cannot be fetched', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, select } = await openPage();
    await user.selectOptions(select, 'USPS Priority Mail');
    await waitFor(() => expect(screen.getByTestId('label-price')).toHaveTextContent('$4.25'));

    server.use(
      http.post(api('orders/price/v2/bulk'), () =>
        HttpResponse.json({ code: 'PRICING_NO_RANGE', message: 'No price' }, { status: 422 }),
      ),
    );
    await user.type(region('Package Information').getByLabelText('Weight (lbs)'), '3');
    await waitFor(() => expect(screen.getByTestId('label-price')).toHaveTextContent('$0.00'));
  });

  it("refuses to order without a service ('Please select a service') and sends nothing", async () => {
    const received: Received[] = [];
    server.use(orderHandler(received, () => HttpResponse.json({})));
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Order Label' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select a service');
    expect(received).toHaveLength(0);
  });

  it('names the required fields left blank and sends nothing', async () => {
    const received: Received[] = [];
    server.use(orderHandler(received, () => HttpResponse.json({})));
    const { user, select } = await openPage();
    await user.selectOptions(select, 'USPS Priority Mail');
    await user.type(region('Package Information').getByLabelText('Weight (lbs)'), '2');
    await user.click(screen.getByRole('button', { name: 'Order Label' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please fill in the required fields: Length, Width, Height, Sender name, Sender street, Sender city, Sender ZIP code, Receiver name, Receiver street, Receiver city, Receiver ZIP code',
    );
    const length = region('Package Information').getByLabelText('Length');
    expect(length).toHaveFocus();
    expect(length).toHaveAttribute('aria-invalid', 'true');
    expect(received).toHaveLength(0);
  });

  it('sends exactly the order-create payload with an Idempotency-Key, once for a double click, then confirms and refreshes the balance', async () => {
    const received: Received[] = [];
    const links: { path: string; session: string | null }[] = [];
    // The answer waits until the test has seen the button while the order is out, however fast the machine is.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      downloadLinkHandler('download-token-1', links),
      orderHandler(received, async () => {
        await answered;
        return HttpResponse.json({
          message: 'Label created',
          data: { orderId: 'o-1', pdfName: 'label 1.pdf', tracking_number: '9400', price: 8.25 },
        });
      }),
    );
    const app = await openPage();
    await fillForm(app);
    expect(verifyCalls).toBe(1);

    const button = screen.getByRole('button', { name: 'Order Label' });
    await app.user.dblClick(button);
    expect(await screen.findByRole('button', { name: 'Ordering...' })).toBeDisabled();
    answer();

    const dialog = await screen.findByRole('dialog', { name: 'Label Created Successfully!' });
    expect(received).toHaveLength(1);
    expect(received[0]?.body).toEqual(EXPECTED_PAYLOAD);
    expect(received[0]?.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    expect(within(dialog).getByText('Your shipping label has been generated and is ready for download.')).toBeVisible();
    // The PDF opens in a new tab through a download link asked for at the click: no session token in a URL.
    const tabs = stubWindowOpen();
    await app.user.click(within(dialog).getByRole('button', { name: 'Download Label PDF' }));
    await waitFor(() =>
      expect(tabs).toEqual([
        {
          url: 'http://localhost/api/orders/download/v2/label%201.pdf?token=download-token-1',
          text: 'Preparing your download…',
          closed: false,
          hasOpener: false,
        },
      ]),
    );
    expect(links).toEqual([{ path: '/api/orders/download/v2/label%201.pdf', session: 'good-token' }]);

    // The purchase was paid from the balance: the user is loaded again and the menu shows the new balance.
    await waitFor(() => expect(verifyCalls).toBe(2));
    await waitFor(() => expect(app.store.getState().auth.user?.balance).toBe(4.25));

    await app.user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Order Label' })).toBeEnabled();

    // A second purchase is a new one: a new key.
    await app.user.click(screen.getByRole('button', { name: 'Order Label' }));
    await screen.findByRole('dialog', { name: 'Label Created Successfully!' });
    expect(received).toHaveLength(2);
    expect(received[1]?.key).not.toBe(received[0]?.key);
  });

  it("shows only the part of the server's message after the first colon, capitalised", async () => {
    const received: Received[] = [];
    server.use(
      orderHandler(received, () =>
        HttpResponse.json(
          { code: 'ORDERS_CARRIER_REJECTED', message: 'Carrier error: address not found' },
          { status: 422 },
        ),
      ),
    );
    const app = await openPage();
    await fillForm(app);
    await app.user.click(screen.getByRole('button', { name: 'Order Label' }));
    expect(within(await screen.findByRole('alert')).getByText('Address not found')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Order Label' })).toBeEnabled();
    expect(verifyCalls).toBe(1);
  });

  it("falls back to 'An Unknown Error Occurred' and retries a lost purchase with the same key", async () => {
    const received: Received[] = [];
    server.use(orderHandler(received, () => HttpResponse.error()));
    const app = await openPage();
    await fillForm(app);
    await app.user.click(screen.getByRole('button', { name: 'Order Label' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An Unknown Error Occurred');

    // Same form, outcome unknown: the retry must not buy a second label.
    await app.user.click(screen.getByRole('button', { name: 'Order Label' }));
    await waitFor(() => expect(received).toHaveLength(2));
    expect(received[1]?.key).toBe(received[0]?.key);

    // A changed form is a different purchase.
    await app.user.type(region('Package Information').getByLabelText('Description'), ' and maps');
    await app.user.click(screen.getByRole('button', { name: 'Order Label' }));
    await waitFor(() => expect(received).toHaveLength(3));
    expect(received[2]?.key).not.toBe(received[0]?.key);
  });

  it('keeps the key while the server says the purchase is still in progress, so trying again cannot buy twice', async () => {
    const received: Received[] = [];
    server.use(
      orderHandler(received, () =>
        HttpResponse.json(
          {
            code: 'ORDERS_IN_PROGRESS',
            message: 'This order is already being processed. Please try again in a moment.',
          },
          { status: 409 },
        ),
      ),
    );
    const app = await openPage();
    await fillForm(app);
    await app.user.click(screen.getByRole('button', { name: 'Order Label' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This order is already being processed. Please try again in a moment.',
    );

    await app.user.click(screen.getByRole('button', { name: 'Order Label' }));
    await waitFor(() => expect(received).toHaveLength(2));
    expect(received[1]?.key).toBe(received[0]?.key);
  });
});
