import { readOrderFile, toBulkOrderItem } from '@flatship/order-files';
import type { Address, Sku } from '@flatship/proto';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { useFakeClock } from '../../test/fake-clock';
import { makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { BULK_PRICE_DEBOUNCE_MS } from './bulk-order-saga';

const SERVICES = [
  { uid: 'svc-ground', name: 'USPS Ground Advantage', category: 'USPS', maxWeight: 70 },
  { uid: 'svc-priority', name: 'USPS Priority Mail', category: 'USPS', maxWeight: 70 },
];

const HOME: Address = {
  _id: 'a-1',
  address_id: 'HOME',
  name: 'Jane Shipper',
  company: 'Acme',
  phone: '555-0100',
  street: '1 Main St',
  street2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US',
};

const AMAZON_HEADER = [
  'order-id',
  'order-item-id',
  'sku',
  'quantity-to-ship',
  'recipient-name',
  'ship-address-1',
  'ship-city',
  'ship-state',
  'ship-postal-code',
  'ship-country',
];
const AMAZON_TXT = [
  AMAZON_HEADER.join('\t'),
  [
    '112-3849201-7735104',
    '48201937561024',
    'MUG-11OZ',
    '1',
    'Harold Finch',
    '9 Elm St',
    'Austin',
    'TX',
    '73301',
    'US',
  ].join('\t'),
].join('\n');

const HEADER = [
  'SKU',
  'Quantity',
  'From Name',
  'From Street 1',
  'From City',
  'From State',
  'From Zip',
  'To Name',
  'To Street 1',
  'To City',
  'To State',
  'To Zip',
  'Length',
  'Width',
  'Height',
  'Weight',
].join(',');

interface CsvRow {
  sku?: string;
  qty?: number;
  to?: string;
  weight?: string;
  length?: string;
}

const csvLine = ({ sku = '', qty = 1, to = 'Bob Buyer', weight = '2', length = '10' }: CsvRow, i: number) =>
  [
    sku,
    qty,
    'Jane Shipper',
    '1 Main St',
    'Springfield',
    'IL',
    '62701',
    to,
    `${i + 1} Oak Ave`,
    'Austin',
    'TX',
    '73301',
    length,
    '8',
    '4',
    weight,
  ].join(',');

const csvOf = (rows: CsvRow[]) => [HEADER, ...rows.map(csvLine)].join('\n');
const csvFile = (rows: CsvRow[], name = 'orders.csv') => new File([csvOf(rows)], name, { type: 'text/csv' });

interface Calls {
  quotes: unknown[];
  inits: unknown[];
  processes: unknown[];
  skuSaves: unknown[];
}

const server = setupTestServer(verifyHandler(makeUser()));

function openBulk({ addresses = [], skus = [] }: { addresses?: Address[]; skus?: Sku[] } = {}) {
  const calls: Calls = { quotes: [], inits: [], processes: [], skuSaves: [] };
  server.use(
    http.get(api('userServices/u-1/available'), () => HttpResponse.json(SERVICES)),
    http.get(api('auth/get-address/u-1'), () => HttpResponse.json({ savedAddress: addresses })),
    http.get(api('auth/get-sku/u-1'), () => HttpResponse.json({ SkuData: skus })),
    http.post(api('orders/price/v2/bulk'), async ({ request }) => {
      calls.quotes.push(await request.json());
      return HttpResponse.json({ totalPrice: 25.5 });
    }),
    http.post(api('orders/bulk/init'), async ({ request }) => {
      calls.inits.push(await request.json());
      return HttpResponse.json({ message: 'Bulk order created', data: { orderId: 'bulk-1' } });
    }),
    http.post(api('orders/bulk/process/u-1'), async ({ request }) => {
      calls.processes.push(await request.json());
      return HttpResponse.json({ message: 'Bulk order accepted' }, { status: 202 });
    }),
    http.post(api('auth/add-sku/u-1'), async ({ request }) => {
      calls.skuSaves.push(await request.json());
      return HttpResponse.json({ message: 'Saved', SkuData: [] });
    }),
  );
  const app = renderApp('/main/bulk-order', { token: 'good-token' });
  return { app, calls };
}

async function ready() {
  await screen.findByRole('heading', { name: 'Bulk Order Items' });
  await screen.findByRole('option', { name: 'USPS Priority Mail' });
}

const countText = () => screen.getByTestId('bulk-count').textContent;
const bodyRows = () => [...document.querySelectorAll<HTMLTableRowElement>('tbody tr[data-row-id]')];
const cell = (row: HTMLTableRowElement, field: string) =>
  row.querySelector<HTMLTableCellElement>(`td[data-field="${field}"]`) as HTMLTableCellElement;

async function upload(app: ReturnType<typeof renderApp>, file: File) {
  await app.user.upload(screen.getByTestId('bulk-file-input'), file);
}

describe('Bulk order screen', () => {
  it('shows the service picker, summary bar, template link and drop prompt, with Submit disabled before a file', async () => {
    openBulk();
    await ready();
    const select = screen.getByLabelText('Service') as HTMLSelectElement;
    expect(select.options[0]?.textContent).toBe('Select a service...');
    expect(screen.getByRole('link', { name: 'Bulk Template CSV' })).toHaveAttribute(
      'href',
      '/api/orders/file/template',
    );
    expect(
      screen.getByText(
        'Click or Drag & drop. Supports .csv / Amazon .txt, Walmart .xlsx, TikTok Shop .csv/.xlsx, eBay .csv, Shopify .csv and Etsy .csv',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('bulk-file-input')).toHaveAttribute('accept', '.csv,.txt,.xlsx');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(countText()).toBe('0');
  });

  it('a dropped CSV fills the table, names the file and says it was uploaded', async () => {
    openBulk();
    await ready();
    const file = csvFile([{ to: 'Bob Buyer' }, { to: 'Carla Client' }]);
    fireEvent.drop(screen.getByRole('button', { name: 'Choose an order file' }), { dataTransfer: { files: [file] } });
    expect(await screen.findByText('File Uploaded successfully.')).toBeInTheDocument();
    expect(screen.getByText('orders.csv')).toBeInTheDocument();
    expect(screen.getByText('Carla Client')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(2);
    expect(countText()).toBe('2');
    const groups = [...document.querySelectorAll('thead th[scope="colgroup"]')].map((th) => th.textContent);
    expect(groups).toEqual(['Sender', 'Recipient', 'Package']);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it('shows the Order Information group when the file carries SKUs', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{ sku: 'MUG-1' }]));
    await screen.findByText('File Uploaded successfully.');
    const groups = [...document.querySelectorAll('thead th[scope="colgroup"]')].map((th) => th.textContent);
    expect(groups).toEqual(['Order Information', 'Sender', 'Recipient', 'Package']);
  });

  it('refuses an Amazon .txt when the user has no saved address', async () => {
    const { app } = openBulk({ addresses: [] });
    await ready();
    await upload(app, new File(['order-id\tsku\n1\tA'], 'unshipped.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Please add an address first')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
  });

  it('refuses a marketplace export saved as .csv, recognised by its columns, when the user has no saved address', async () => {
    const { app } = openBulk({ addresses: [] });
    await ready();
    const text =
      'Order Number,Item Number,Ship To Name,Ship To Address 1,Ship To City,Ship To State,Ship To Zip,Quantity\n12-1,3355,Ann Buyer,1 Main St,Reno,NV,89501,1\n';
    await upload(app, new File([text], 'eBay-orders.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Please add an address first')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(0);
    // Said as plainly as for an Amazon .txt, not as a file that could not be parsed.
    expect(screen.queryByText('Error parsing file')).toBeNull();
  });

  it('warns about invalid rows on load and highlights their cells', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{ to: '' }, { weight: 'abc' }, {}]));
    expect(
      await screen.findByText('2 row(s) have validation errors. Please check the table and fix them.'),
    ).toBeInTheDocument();
    const [first, second, third] = bodyRows();
    expect(cell(first as HTMLTableRowElement, 'ToRecipientName')).toHaveClass('bulk-table__cell--invalid');
    expect(cell(second as HTMLTableRowElement, 'PackageWeight')).toHaveClass('bulk-table__cell--invalid');
    expect(third?.querySelector('.bulk-table__cell--invalid')).toBeNull();
  });

  it('flags the number of a row with problems and takes the user to its first bad cell', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{}, { weight: 'abc' }]));
    await screen.findByText('File Uploaded successfully.');
    const [good, bad] = bodyRows();
    expect(within(good as HTMLElement).queryByRole('button', { name: /has problems/ })).toBeNull();
    const flag = within(bad as HTMLElement).getByRole('button', {
      name: /^Row 2 has problems: .+\. Show the first one$/,
    });
    const scrolled: Element[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      fireEvent.click(flag);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
    expect(scrolled).toEqual([cell(bad as HTMLTableRowElement, 'PackageWeight')]);
    expect(within(bad as HTMLElement).getByRole('button', { name: 'Edit row 2' })).toHaveFocus();
  });

  it('quotes the rows when a service is chosen and re-quotes when the service changes', async () => {
    const { app, calls } = openBulk();
    await ready();
    // A quote waits for the changes to settle (a debounce), on a fake clock.
    useFakeClock();
    await upload(app, csvFile([{ weight: '2' }, { weight: 'abc' }]));
    await screen.findByText('File Uploaded successfully.');
    // No service yet: the wait after the upload ends with nothing to quote.
    act(() => vi.advanceTimersByTime(BULK_PRICE_DEBOUNCE_MS));
    expect(calls.quotes).toHaveLength(0);

    await app.user.selectOptions(screen.getByLabelText('Service'), 'USPS Ground Advantage');
    await waitFor(() => expect(calls.quotes).toHaveLength(1));
    // The first quote the server got is this one: a quote sent without a service would have come before it.
    expect(calls.quotes[0]).toEqual({
      userId: 'u-1',
      shipments: [
        { service_name: 'USPS Ground Advantage', package: { package_weight: 2 } },
        { service_name: 'USPS Ground Advantage', package: { package_weight: 1 } },
      ],
    });
    expect(await screen.findByText('$25.50')).toBeInTheDocument();

    await app.user.selectOptions(screen.getByLabelText('Service'), 'USPS Priority Mail');
    await waitFor(() => expect(calls.quotes).toHaveLength(2));
    expect(calls.quotes[1]).toMatchObject({ shipments: [{ service_name: 'USPS Priority Mail' }, {}] });
  });

  it('says the price could not be calculated, with the server message when there is one', async () => {
    const { app } = openBulk();
    server.use(
      http.post(api('orders/price/v2/bulk'), () =>
        HttpResponse.json({ code: 'PRICING_NO_PRICE', message: 'No price for 80 lb' }, { status: 422 }),
      ),
    );
    await ready();
    await upload(app, csvFile([{}]));
    await app.user.selectOptions(screen.getByLabelText('Service'), 'USPS Priority Mail');
    expect(await screen.findByText('No price for 80 lb')).toBeInTheDocument();

    server.use(http.post(api('orders/price/v2/bulk'), () => HttpResponse.error()));
    await app.user.selectOptions(screen.getByLabelText('Service'), 'USPS Ground Advantage');
    expect(await screen.findByText('Price calculation failed')).toBeInTheDocument();
  });

  it('a submit with invalid rows lists them in the Validation Errors dialog and makes no call', async () => {
    const { app, calls } = openBulk();
    await ready();
    await upload(app, csvFile([{ to: '' }, {}, { length: '-3' }]));
    await app.user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Validation Errors' }));
    expect(dialog.getByText('2 rows have validation errors')).toBeInTheDocument();
    expect(dialog.getByText('Service name must be selected from the dropdown')).toBeInTheDocument();
    expect(dialog.getByText('Row 1')).toBeInTheDocument();
    expect(dialog.getByText('Recipient name is required')).toBeInTheDocument();
    expect(dialog.getByText('Row 3')).toBeInTheDocument();
    expect(dialog.getByText('Length must be a positive number')).toBeInTheDocument();
    await app.user.click(dialog.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Validation Errors' })).not.toBeInTheDocument();
    expect(calls.inits).toHaveLength(0);
    expect(calls.processes).toHaveLength(0);
  });

  it('says "1 row has validation errors" for a single bad row', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{ to: '' }, {}]));
    await app.user.selectOptions(screen.getByLabelText('Service'), 'USPS Priority Mail');
    await app.user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Validation Errors' }));
    expect(dialog.getByText('1 row has validation errors')).toBeInTheDocument();
  });

  it('submits: init, then process with every row, then opens the progress window and clears the table', async () => {
    const { app, calls } = openBulk();
    await ready();
    const rows = [{ sku: 'MUG-1', qty: 2 }, { to: 'Carla Client' }];
    await upload(app, csvFile(rows));
    await app.user.selectOptions(screen.getByLabelText('Service'), 'USPS Priority Mail');
    await app.user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(calls.processes).toHaveLength(1));
    expect(calls.inits).toEqual([{ userId: 'u-1' }]);
    const expected = await readOrderFile(
      { name: 'orders.csv', data: await csvFile(rows).arrayBuffer() },
      { senderAddress: null, skus: [] },
    );
    expect(calls.processes[0]).toEqual({
      orderId: 'bulk-1',
      orderData: expected.rows.map((row) => toBulkOrderItem(row, 'USPS Priority Mail')),
      source: 'csv',
      fileName: 'orders.csv',
    });
    await waitFor(() => expect(countText()).toBe('0'));
    const progress = (app.store.getState() as unknown as { bulkProgress: { orderId: string | null } }).bulkProgress;
    expect(progress.orderId).toBe('bulk-1');
    expect(app.store.getState().bulkOrder.lastOrderId).toBe('bulk-1');
    expect(screen.getByRole('button', { name: 'Choose an order file' })).toBeInTheDocument();
  });

  it("shows the server's reason when the order cannot be processed, and keeps the rows", async () => {
    const { app, calls } = openBulk();
    server.use(
      http.post(api('orders/bulk/process/u-1'), () =>
        HttpResponse.json(
          { code: 'ORDERS_INSUFFICIENT_BALANCE', message: 'Insufficient balance: the order costs $25.50' },
          { status: 402 },
        ),
      ),
    );
    await ready();
    await upload(app, csvFile([{}]));
    await app.user.selectOptions(screen.getByLabelText('Service'), 'USPS Priority Mail');
    await app.user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Insufficient balance: the order costs $25.50')).toBeInTheDocument();
    expect(calls.inits).toHaveLength(1);
    expect(countText()).toBe('1');
  });

  it('says the bulk order could not be initialised when init fails without a message', async () => {
    const { app, calls } = openBulk();
    server.use(http.post(api('orders/bulk/init'), () => new HttpResponse(null, { status: 500 })));
    await ready();
    await upload(app, csvFile([{}]));
    await app.user.selectOptions(screen.getByLabelText('Service'), 'USPS Priority Mail');
    await app.user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Failed to initialize bulk order')).toBeInTheDocument();
    expect(calls.processes).toHaveLength(0);
  });

  it('editing a SKU row copies its dimensions to the rows with that SKU and saves the preset', async () => {
    const { app, calls } = openBulk();
    await ready();
    await upload(app, csvFile([{ sku: 'MUG-1', qty: 3 }, { sku: 'MUG-1' }, { sku: 'TEE-1' }]));
    await screen.findByText('File Uploaded successfully.');
    await app.user.click(screen.getByRole('button', { name: 'Edit row 1' }));
    // The edit starts in the row's first cell.
    expect(screen.getByLabelText('Order ID, row 1')).toHaveFocus();
    const length = screen.getByLabelText('Length, row 1');
    await app.user.clear(length);
    await app.user.type(length, '12{Enter}');

    const [first, second, third] = bodyRows() as HTMLTableRowElement[];
    expect(cell(first as HTMLTableRowElement, 'PackageLength').textContent).toBe('12');
    expect(cell(second as HTMLTableRowElement, 'PackageLength').textContent).toBe('12');
    expect(cell(third as HTMLTableRowElement, 'PackageLength').textContent).toBe('10');
    await waitFor(() => expect(calls.skuSaves).toHaveLength(1));
    expect(calls.skuSaves[0]).toEqual({
      parsedData: [{ sku: 'MUG-1', maxQty: 3, weight: 2, length: 12, width: 8, height: 4, description: '' }],
      upsert: true,
    });
  });

  it('an edited number that is not a number becomes empty and is highlighted', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{}]));
    await app.user.click(await screen.findByRole('button', { name: 'Edit row 1' }));
    const weight = screen.getByLabelText('Weight, row 1');
    await app.user.clear(weight);
    await app.user.type(weight, 'heavy');
    await app.user.click(screen.getByRole('button', { name: 'Save' }));
    const row = bodyRows()[0] as HTMLTableRowElement;
    expect(cell(row, 'PackageWeight')).toHaveClass('bulk-table__cell--invalid');
    expect(cell(row, 'PackageWeight').textContent).toBe(' (Weight is required)');
  });

  it('Copy from: copies one column into another for every row', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{ to: 'Bob Buyer' }, { to: 'Carla Client' }]));
    await app.user.click(
      await screen.findByRole('button', { name: 'Copy into Recipient Company from another column' }),
    );
    const menu = within(screen.getByRole('menu', { name: 'Copy from:' }));
    await app.user.click(menu.getByRole('menuitem', { name: 'Recipient Name' }));
    const [first, second] = bodyRows() as HTMLTableRowElement[];
    expect(cell(first as HTMLTableRowElement, 'ToCompany').textContent).toBe('Bob Buyer');
    expect(cell(second as HTMLTableRowElement, 'ToCompany').textContent).toBe('Carla Client');
  });

  it('asks before deleting a row (spec texts), and Cancel keeps it', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{ to: 'Bob Buyer' }, { to: 'Carla Client' }]));
    await app.user.click(await screen.findByRole('button', { name: 'Delete row 1' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Delete row 1' }));
    expect(dialog.getByText('Are you sure you want to delete this item?')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Bob Buyer')).toBeInTheDocument();
    expect(countText()).toBe('2');
    expect(screen.getByRole('button', { name: 'Delete row 1' })).toHaveFocus();
  });

  it('deletes a row once confirmed, says so, and keeps focus in the table on the row that took its place', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{ to: 'Bob Buyer' }, { to: 'Carla Client' }, { to: 'Dana Dealer' }]));
    await app.user.click(await screen.findByRole('button', { name: 'Delete row 2' }));
    await app.user.click(
      within(screen.getByRole('dialog', { name: 'Delete row 2' })).getByRole('button', { name: 'Confirm' }),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText('Carla Client')).not.toBeInTheDocument();
    expect(bodyRows().map((r) => cell(r, 'ToRecipientName').textContent)).toEqual(['Bob Buyer', 'Dana Dealer']);
    expect(countText()).toBe('2');
    expect(await screen.findByText('Row deleted successfully!')).toBeInTheDocument();
    // Dana is row 2 now: the next Delete is one key press away.
    expect(screen.getByRole('button', { name: 'Delete row 2' })).toHaveFocus();
    expect(within(bodyRows()[1] as HTMLTableRowElement).getByRole('button', { name: 'Delete row 2' })).toHaveFocus();
  });

  it('deletes with the keyboard alone: Escape cancels, Tab to Confirm and Enter deletes; the last row leaves focus in the table', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{ to: 'Bob Buyer' }, { to: 'Carla Client' }]));
    const deleteLast = await screen.findByRole('button', { name: 'Delete row 2' });
    deleteLast.focus();
    await app.user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Delete row 2' })).toBeInTheDocument();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Carla Client')).toBeInTheDocument();
    expect(deleteLast).toHaveFocus();

    await app.user.keyboard('{Enter}');
    await app.user.tab();
    expect(screen.getByRole('button', { name: 'Confirm' })).toHaveFocus();
    await app.user.keyboard('{Enter}');
    expect(screen.queryByText('Carla Client')).not.toBeInTheDocument();
    expect(countText()).toBe('1');
    // No row after it: the row before it takes the focus.
    expect(screen.getByRole('button', { name: 'Delete row 1' })).toHaveFocus();

    await app.user.keyboard('{Enter}');
    await app.user.tab();
    await app.user.keyboard('{Enter}');
    expect(countText()).toBe('0');
    expect(document.querySelector('.bulk-table__scroll')).toHaveFocus();
  });

  it('reset clears the file and the rows', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile([{}]));
    await app.user.click(await screen.findByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('File reset successfully.')).toBeInTheDocument();
    expect(screen.queryByText('orders.csv')).not.toBeInTheDocument();
    expect(countText()).toBe('0');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
  });

  it('with 5,000 rows renders only a window of them', async () => {
    const { app } = openBulk();
    await ready();
    await upload(app, csvFile(Array.from({ length: 5000 }, () => ({}))));
    await waitFor(() => expect(countText()).toBe('5000'), { timeout: 10_000 });
    expect(document.querySelectorAll('tbody tr').length).toBeLessThan(100);
    expect(document.querySelector('table')?.getAttribute('aria-rowcount')).toBe('5002');
  }, 20_000);

  it('says so when the services or the saved data cannot be loaded', async () => {
    openBulk();
    server.use(
      http.get(api('userServices/u-1/available'), () => new HttpResponse(null, { status: 500 })),
      http.get(api('auth/get-sku/u-1'), () => new HttpResponse(null, { status: 500 })),
    );
    expect(await screen.findByText('Error loading services')).toBeInTheDocument();
    expect(await screen.findByText('Error loading initial data')).toBeInTheDocument();
  });

  it('reads an Amazon .txt with the saved address as the sender', async () => {
    const { app } = openBulk({ addresses: [HOME] });
    await ready();
    await upload(app, new File([AMAZON_TXT], 'unshipped.txt', { type: 'text/plain' }));
    expect(await screen.findByText('File Uploaded successfully.')).toBeInTheDocument();
    expect(screen.getByText('Harold Finch')).toBeInTheDocument();
    expect(cell(bodyRows()[0] as HTMLTableRowElement, 'FromSenderName').textContent).toBe('Jane Shipper');
    expect(app.store.getState().bulkOrder.source).toBe('amazon');
  });
});
