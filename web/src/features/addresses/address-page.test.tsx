import type { Address } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser()));

const address = (i: number, overrides: Partial<Address> = {}): Address => ({
  _id: `a-${i}`,
  address_id: `HOME-${i}`,
  name: `Jane ${i}`,
  company: 'Acme',
  phone: '555-0100',
  street: `${i} Main St`,
  street2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US',
  ...overrides,
});

function listHandler(addresses: Address[]) {
  return http.get(api('auth/get-address/:userId'), ({ params }) =>
    params.userId === 'u-1'
      ? HttpResponse.json({ savedAddress: addresses })
      : HttpResponse.json({ code: 'FORBIDDEN', message: 'Forbidden' }, { status: 403 }),
  );
}

async function openAddressPage(addresses: Address[]) {
  server.use(listHandler(addresses));
  const app = renderApp('/main/address', { token: 'good-token' });
  await screen.findByRole('heading', { name: 'Address Book' });
  return app;
}

const tableRow = (text: string) => within(screen.getByText(text).closest('tr') as HTMLElement);
const editingRow = () => within(document.querySelector('.data-table__row--editing') as HTMLElement);

async function fillAddForm(user: ReturnType<typeof renderApp>['user'], values: Record<string, string>) {
  const dialog = within(screen.getByRole('dialog', { name: 'Add Address' }));
  for (const [label, value] of Object.entries(values)) {
    const field = dialog.getByLabelText(label);
    if (field.tagName === 'SELECT') await user.selectOptions(field, value);
    else await user.type(field, value);
  }
  return dialog;
}

describe('Address page', () => {
  it('lists every saved address with its columns, paged by 7', async () => {
    const app = await openAddressPage(Array.from({ length: 8 }, (_, i) => address(i + 1)));
    expect(await screen.findByText('HOME-1')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Saved addresses' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Address ID',
      'Name',
      'Company',
      'Phone',
      'Street',
      'Street 2',
      'City',
      'State',
      'ZIP',
      'Country',
      'Actions',
    ]);
    expect(within(table).getAllByRole('row')).toHaveLength(8);
    expect(screen.queryByText('HOME-8')).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(screen.getByText('HOME-8')).toBeInTheDocument();
  });

  it('shows a loading indicator, then the empty state pointing to Add Address', async () => {
    let release: () => void = () => {};
    server.use(
      http.get(api('auth/get-address/:userId'), async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return HttpResponse.json({ savedAddress: [] });
      }),
    );
    renderApp('/main/address', { token: 'good-token' });
    expect(await screen.findByText('Loading addresses…')).toBeInTheDocument();
    await waitFor(() => release());
    release();
    expect(await screen.findByText('No saved addresses found')).toBeInTheDocument();
    expect(screen.getByText(/Use Add Address/)).toBeInTheDocument();
    expect(screen.queryByText('Loading addresses…')).not.toBeInTheDocument();
  });

  it('toasts a load failure with the server message and shows the empty state', async () => {
    server.use(
      http.get(api('auth/get-address/:userId'), () =>
        HttpResponse.json({ code: 'SERVICE_UNAVAILABLE', message: 'Accounts are unavailable' }, { status: 503 }),
      ),
    );
    renderApp('/main/address', { token: 'good-token' });
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to load addresses');
    expect(toast).toHaveTextContent('Accounts are unavailable');
    expect(screen.getByText('No saved addresses found')).toBeInTheDocument();
  });

  it('adds an address with the exact payload, toasts success and lists it', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(api('auth/save-address/:userId'), async ({ request, params }) => {
        expect(params.userId).toBe('u-1');
        const body = (await request.json()) as Omit<Address, '_id'>;
        bodies.push(body);
        return HttpResponse.json({ message: 'Address added successfully!', address: { _id: 'a-new', ...body } });
      }),
    );
    const app = await openAddressPage([]);
    await screen.findByText('No saved addresses found');
    await app.user.click(screen.getByRole('button', { name: 'Add Address' }));
    const dialog = await fillAddForm(app.user, {
      'Address ID': ' WAREHOUSE ',
      Name: 'Bob Sender',
      Phone: '+1 555-0199',
      Street: '1 Dock Rd',
      City: 'Austin',
      State: 'TX',
      ZIP: '73301',
    });
    expect(dialog.getByLabelText('Country')).toHaveValue('US');
    expect(dialog.getByLabelText('Country')).toHaveAttribute('readonly');
    await app.user.click(dialog.getByRole('button', { name: 'Add Address' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Address added successfully!');
    expect(bodies).toEqual([
      {
        address_id: 'WAREHOUSE',
        name: 'Bob Sender',
        company: '',
        phone: '+1 555-0199',
        street: '1 Dock Rd',
        street2: '',
        city: 'Austin',
        state: 'TX',
        zip: '73301',
        country: 'US',
      },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(tableRow('WAREHOUSE').getByText('Bob Sender')).toBeInTheDocument();
  });

  it('names each empty required field and sends nothing', async () => {
    let calls = 0;
    server.use(
      http.post(api('auth/save-address/:userId'), () => {
        calls += 1;
        return HttpResponse.json({ message: 'Address added successfully!' });
      }),
    );
    const app = await openAddressPage([]);
    await app.user.click(screen.getByRole('button', { name: 'Add Address' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Add Address' }));
    expect(dialog.getByLabelText('Address ID')).toHaveFocus();
    await app.user.click(dialog.getByRole('button', { name: 'Add Address' }));
    for (const text of [
      'Address ID is required',
      'Name is required',
      'Street is required',
      'City is required',
      'State is required',
      'ZIP is required',
    ]) {
      expect(dialog.getByText(text)).toBeInTheDocument();
    }
    expect(dialog.queryByText('Company is required')).not.toBeInTheDocument();
    expect(dialog.getByLabelText('Address ID')).toHaveFocus();
    expect(calls).toBe(0);
  });

  it('shows "This Address ID already exists" on the Address ID field and keeps the dialog open', async () => {
    server.use(
      http.post(api('auth/save-address/:userId'), () =>
        HttpResponse.json({ code: 'ADDRESS_ID_TAKEN', message: 'This Address ID already exists' }, { status: 409 }),
      ),
    );
    const app = await openAddressPage([address(1)]);
    await app.user.click(screen.getByRole('button', { name: 'Add Address' }));
    const dialog = await fillAddForm(app.user, {
      'Address ID': 'HOME-1',
      Name: 'Bob',
      Street: '1 Dock Rd',
      City: 'Austin',
      State: 'TX',
      ZIP: '73301',
    });
    await app.user.click(dialog.getByRole('button', { name: 'Add Address' }));

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to add address');
    expect(toast).toHaveTextContent('This Address ID already exists');
    // The field's error and the focus on it may come a render after the toast.
    await waitFor(() =>
      expect(dialog.getByLabelText('Address ID')).toHaveAccessibleDescription('This Address ID already exists'),
    );
    await waitFor(() => expect(dialog.getByLabelText('Address ID')).toHaveFocus());
  });

  it('puts a server field error on its field and anything else under "Submission failed"', async () => {
    let reply = { code: 'ADDRESS_INVALID', message: 'ZIP must be 5 digits or ZIP+4' };
    server.use(http.post(api('auth/save-address/:userId'), () => HttpResponse.json(reply, { status: 400 })));
    const app = await openAddressPage([]);
    await app.user.click(screen.getByRole('button', { name: 'Add Address' }));
    const dialog = await fillAddForm(app.user, {
      'Address ID': 'X',
      Name: 'Bob',
      Street: '1 Dock Rd',
      City: 'Austin',
      State: 'TX',
      ZIP: '7330',
    });
    await app.user.click(dialog.getByRole('button', { name: 'Add Address' }));
    await waitFor(() =>
      expect(dialog.getByLabelText('ZIP')).toHaveAccessibleDescription('ZIP must be 5 digits or ZIP+4'),
    );

    reply = { code: 'ADDRESS_LIMIT', message: 'You can keep at most 500 saved addresses' };
    await app.user.click(dialog.getByRole('button', { name: 'Add Address' }));
    const formAlert = await within(screen.getByRole('dialog')).findByText('Submission failed');
    expect(formAlert.parentElement).toHaveTextContent('You can keep at most 500 saved addresses');
  });

  it('edits a row inline: state as a select, phone checked, the full record sent, success toasted', async () => {
    const sent: { id: string; body: unknown }[] = [];
    server.use(
      http.post(api('auth/update-address/:userId/:id'), async ({ request, params }) => {
        const body = (await request.json()) as Omit<Address, '_id'>;
        sent.push({ id: String(params.id), body });
        return HttpResponse.json({
          message: 'Address updated successfully!',
          address: { _id: String(params.id), ...body },
        });
      }),
    );
    const app = await openAddressPage([address(1), address(2)]);
    await app.user.click(
      (await screen.findByText('HOME-2')) && tableRow('HOME-2').getByRole('button', { name: 'Edit' }),
    );

    const edit = editingRow();
    await app.user.clear(edit.getByRole('textbox', { name: 'Phone' }));
    await app.user.type(edit.getByRole('textbox', { name: 'Phone' }), 'call me');
    await app.user.clear(edit.getByRole('textbox', { name: 'ZIP' }));
    await app.user.click(edit.getByRole('button', { name: 'Save' }));
    expect(edit.getByText('Invalid phone number')).toBeInTheDocument();
    expect(edit.getByText('ZIP is required')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await app.user.clear(edit.getByRole('textbox', { name: 'Phone' }));
    await app.user.type(edit.getByRole('textbox', { name: 'Phone' }), '555-0199');
    await app.user.type(edit.getByRole('textbox', { name: 'ZIP' }), '10001');
    await app.user.selectOptions(edit.getByRole('combobox', { name: 'State' }), 'NY');
    await app.user.click(edit.getByRole('button', { name: 'Save' }));

    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Row updated successfully!');
    expect(toast).toHaveTextContent('Address updated successfully!');
    expect(sent).toEqual([
      {
        id: 'a-2',
        body: {
          address_id: 'HOME-2',
          name: 'Jane 2',
          company: 'Acme',
          phone: '555-0199',
          street: '2 Main St',
          street2: '',
          city: 'Springfield',
          state: 'NY',
          zip: '10001',
          country: 'US',
        },
      },
    ]);
    const updated = tableRow('HOME-2');
    expect(updated.getByText('NY')).toBeInTheDocument();
    expect(updated.getByText('10001')).toBeInTheDocument();
  });

  it('toasts a failed inline edit with the server reason and keeps the row in edit', async () => {
    server.use(
      http.post(api('auth/update-address/:userId/:id'), () =>
        HttpResponse.json({ code: 'ADDRESS_ID_TAKEN', message: 'This Address ID already exists' }, { status: 409 }),
      ),
    );
    const app = await openAddressPage([address(1), address(2)]);
    await screen.findByText('HOME-2');
    await app.user.click(tableRow('HOME-2').getByRole('button', { name: 'Edit' }));
    const idInput = editingRow().getByRole('textbox', { name: 'Address ID' });
    await app.user.clear(idInput);
    await app.user.type(idInput, 'HOME-1{Enter}');

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to update the row.');
    expect(toast).toHaveTextContent('Failed to update address — This Address ID already exists');
    expect(editingRow().getByRole('textbox', { name: 'Address ID' })).toHaveValue('HOME-1');
    expect(screen.getByText('Jane 1')).toBeInTheDocument();
  });

  it('deletes only after Confirm, with the record id, and toasts the outcome', async () => {
    const deleted: unknown[] = [];
    let shouldFail = false;
    server.use(
      http.post(api('auth/delete-address/:userId'), async ({ request }) => {
        const body = await request.json();
        if (shouldFail)
          return HttpResponse.json({ code: 'ADDRESS_NOT_FOUND', message: 'Address not found' }, { status: 404 });
        deleted.push(body);
        return HttpResponse.json({ message: 'Address deleted successfully!' });
      }),
    );
    const app = await openAddressPage([address(1), address(2)]);
    await screen.findByText('HOME-1');

    await app.user.click(tableRow('HOME-1').getByRole('button', { name: 'Delete' }));
    const dialog = within(screen.getByRole('dialog'));
    expect(dialog.getByText('Are you sure you want to delete this item?')).toBeInTheDocument();
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(deleted).toEqual([]);
    expect(screen.getByText('HOME-1')).toBeInTheDocument();

    await app.user.click(tableRow('HOME-1').getByRole('button', { name: 'Delete' }));
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Row deleted successfully!');
    expect(toast).toHaveTextContent('Address deleted successfully!');
    expect(deleted).toEqual([{ id: 'a-1' }]);
    expect(screen.queryByText('HOME-1')).not.toBeInTheDocument();

    shouldFail = true;
    await app.user.click(tableRow('HOME-2').getByRole('button', { name: 'Delete' }));
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('Failed to delete the row.');
    expect(failure).toHaveTextContent('Failed to delete address — Address not found');
    expect(screen.getByText('HOME-2')).toBeInTheDocument();
  });
});
