import type { Address } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

// Saved addresses are checked when saved (by auth, through orders): the address book shows a correction with Use
// suggested and Keep mine, and an undeliverable address as a warning.

const server = setupTestServer(verifyHandler(makeUser()));

const SUGGESTED = { street1: '1 MAIN ST', street2: '', city: 'SPRINGFIELD', state: 'IL', zip: '62701-1234' };
const base: Address = {
  _id: 'a-1',
  address_id: 'Warehouse',
  name: 'Jane',
  company: '',
  phone: '',
  street: '1 Main Street',
  street2: '',
  city: 'Springfeld',
  state: 'IL',
  zip: '62701',
  country: 'US',
  verified: false,
  check: { verdict: 'corrected', address: SUGGESTED, corrected: ['street1', 'city', 'zip'] },
};
const nowhere: Address = {
  ...base,
  _id: 'a-2',
  address_id: 'Nowhere',
  zip: '00000',
  check: { verdict: 'undeliverable', message: 'The ZIP code 00000 does not exist.' },
};

function open(addresses: Address[]) {
  const updates: Record<string, unknown>[] = [];
  server.use(
    http.get(api('auth/get-address/u-1'), () => HttpResponse.json({ savedAddress: addresses })),
    http.post(api('auth/update-address/u-1/:id'), async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>;
      updates.push(body);
      return HttpResponse.json({
        message: 'Address updated successfully!',
        address: {
          ...base,
          ...body,
          _id: params.id,
          verified: true,
          check: { verdict: 'deliverable', address: SUGGESTED },
        },
      });
    }),
  );
  const app = renderApp('/main/address', { token: 'good-token' });
  return { app, updates };
}

describe('address checks on the address book', () => {
  it('shows the suggestion; Use suggested saves it and the note goes', async () => {
    const { app, updates } = open([base, nowhere]);
    const notes = within(await screen.findByRole('list', { name: 'Address checks' }));
    expect(notes.getByText('1 MAIN ST, SPRINGFIELD, IL 62701-1234')).toBeInTheDocument();
    expect(
      notes.getByText(/USPS cannot deliver to this address\. The ZIP code 00000 does not exist\./),
    ).toBeInTheDocument();
    await app.user.click(notes.getByRole('button', { name: 'Use suggested' }));
    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0]).toMatchObject({
      street: '1 MAIN ST',
      city: 'SPRINGFIELD',
      zip: '62701-1234',
      address_id: 'Warehouse',
    });
    expect(await screen.findByText('Address updated to the suggested one')).toBeInTheDocument();
    expect(notes.queryByText(/We suggest/)).not.toBeInTheDocument();
  });

  it('Keep mine leaves the address as it is', async () => {
    const { app, updates } = open([base]);
    const notes = within(await screen.findByRole('list', { name: 'Address checks' }));
    await app.user.click(notes.getByRole('button', { name: 'Keep mine' }));
    expect(screen.queryByRole('list', { name: 'Address checks' })).not.toBeInTheDocument();
    expect(updates).toHaveLength(0);
  });
});
