import type { AddressCheck } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { CHECK_CHUNK_SIZE } from './bulk-address-check-saga';

// The bulk file's address checks: the instant ZIP check as the file is read (real ZIP data, no network), then
// "Check addresses" through the carrier in chunks with a progress bar, a summary, Accept all and the filter.

const HEADER =
  'From Name,From Street 1,From City,From State,From Zip,To Name,To Street 1,To City,To State,To Zip,Length,Width,Height,Weight';
const line = (to: string, city: string, state: string, zip: string, i: number) =>
  [
    'Jane Shipper',
    '1 Main St',
    'Springfield',
    'IL',
    '62701',
    to,
    `${i + 1} Oak Ave`,
    city,
    state,
    zip,
    10,
    8,
    4,
    2,
  ].join(',');

/** 30 rows to Austin, TX 73301, but row 3 to a ZIP that does not exist and row 5 to a California ZIP in NY. */
function csv(): File {
  const rows = Array.from({ length: 30 }, (_, i) =>
    i === 2
      ? line('Nora Nowhere', 'Austin', 'TX', '00000', i)
      : i === 4
        ? line('Cal Mismatch', 'New York', 'NY', '94043', i)
        : line(`Buyer ${i + 1}`, 'Austin', 'TX', '73301', i),
  );
  return new File([[HEADER, ...rows].join('\n')], 'orders.csv', { type: 'text/csv' });
}

const NEW_YORK = { street1: '5 OAK AVE', street2: '', city: 'NEW YORK', state: 'NY', zip: '10001-1234' };

const server = setupTestServer(verifyHandler(makeUser()));

function open() {
  const chunks: { street1: string; zip: string }[][] = [];
  let release: () => void = () => {};
  const secondChunk = new Promise<void>((resolve) => {
    release = resolve;
  });
  server.use(
    http.get(api('userServices/u-1/available'), () =>
      HttpResponse.json([{ uid: 'usps_priority_mail', name: 'USPS Priority Mail', category: 'USPS', maxWeight: 70 }]),
    ),
    http.get(api('auth/get-address/u-1'), () => HttpResponse.json({ savedAddress: [] })),
    http.get(api('auth/get-sku/u-1'), () => HttpResponse.json({ SkuData: [] })),
    http.post(api('orders/price/v2/bulk'), () => HttpResponse.json({ totalPrice: 100 })),
    http.post(api('orders/verify-addresses'), async ({ request }) => {
      const { addresses } = (await request.json()) as { addresses: { street1: string; zip: string }[] };
      chunks.push(addresses);
      if (chunks.length === 2) await secondChunk;
      const results = addresses.map(
        (a): AddressCheck =>
          a.zip === '00000'
            ? { verdict: 'undeliverable', message: 'The ZIP code 00000 does not exist.' }
            : a.zip === '94043'
              ? { verdict: 'corrected', address: NEW_YORK, corrected: ['street1', 'zip'] }
              : { verdict: 'deliverable' },
      );
      return HttpResponse.json({ results });
    }),
  );
  const app = renderApp('/main/bulk-order', { token: 'good-token' });
  return { app, chunks, release };
}

const bodyRows = () => [...document.querySelectorAll<HTMLTableRowElement>('tbody tr[data-row-id]')];

describe('address checks of a bulk file', () => {
  it('flags at load the ZIPs that do not exist or are in another state, and filters the table to them', async () => {
    const { app } = open();
    await screen.findByRole('option', { name: 'USPS Priority Mail' });
    await app.user.upload(screen.getByTestId('bulk-file-input'), csv());
    expect(
      await screen.findByText(
        "2 row(s) have a ZIP code that does not exist or is not in the row's state. They are marked in the table.",
      ),
    ).toBeInTheDocument();
    const notes = within(screen.getByRole('list', { name: 'Rows that need a look' }));
    expect(notes.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('Row 3 Recipient ZIP 00000 does not exist.'),
      expect.stringContaining('Row 5 Recipient ZIP 94043 is in CA, not NY.'),
    ]);
    await app.user.click(screen.getByRole('checkbox', { name: 'Show only rows that need a look (2)' }));
    expect(bodyRows().map((r) => r.querySelector('th')?.textContent)).toEqual([
      expect.stringMatching(/^3/),
      expect.stringMatching(/^5/),
    ]);
    // "Keep mine" settles a row: it no longer needs a look.
    await app.user.click(
      within(notes.getAllByRole('listitem')[0] as HTMLElement).getByRole('button', { name: 'Keep mine' }),
    );
    expect(screen.getByRole('checkbox', { name: 'Show only rows that need a look (1)' })).toBeChecked();
    expect(bodyRows()).toHaveLength(1);
  });

  it('Check addresses goes through the rows in chunks with a progress bar, sums up, and accepts all corrections', async () => {
    const { app, chunks, release } = open();
    await screen.findByRole('option', { name: 'USPS Priority Mail' });
    await app.user.upload(screen.getByTestId('bulk-file-input'), csv());
    await screen.findByText('File Uploaded successfully.');
    await app.user.click(screen.getByRole('button', { name: 'Check addresses' }));
    const progress = await screen.findByRole('progressbar', { name: 'Address check progress' });
    await waitFor(() => expect(progress).toHaveAttribute('value', String(CHECK_CHUNK_SIZE)));
    expect(screen.getByText(`Checked ${CHECK_CHUNK_SIZE} of 30`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Checking addresses…' })).toBeDisabled();
    release();
    expect(await screen.findByText('1 corrected, 1 undeliverable')).toBeInTheDocument();
    expect(chunks.map((c) => c.length)).toEqual([CHECK_CHUNK_SIZE, 30 - CHECK_CHUNK_SIZE]);

    const notes = within(screen.getByRole('list', { name: 'Rows that need a look' }));
    expect(notes.getByText('5 OAK AVE, NEW YORK, NY 10001-1234')).toBeInTheDocument();
    expect(
      notes.getByText(/USPS cannot deliver to this address\. The ZIP code 00000 does not exist\./),
    ).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Accept all corrections (1)' }));
    const fifth = bodyRows()[4] as HTMLTableRowElement;
    expect(fifth.querySelector('td[data-field="ToZipPostal"]')).toHaveTextContent('10001-1234');
    expect(fifth.querySelector('td[data-field="ToStreet1"]')).toHaveTextContent('5 OAK AVE');
    // The summary stays as the check found it; only the undeliverable row still needs a look.
    expect(screen.getByText('1 corrected, 1 undeliverable')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Accept all corrections/ })).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('checkbox', { name: 'Show only rows that need a look (1)' }));
    expect(bodyRows()).toHaveLength(1);
    expect(bodyRows()[0]?.querySelector('td[data-field="ToRecipientName"]')).toHaveTextContent('Nora Nowhere');
  });
});
