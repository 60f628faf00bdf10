import type { Sku } from '@flatship/proto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { App } from '../../app/app';
import { createAppStore } from '../../app/store';
import { makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { RequireAuth } from '../auth/require-auth';
import { UserShell } from '../shell/user-shell';
import { SkuPage } from './sku-page';

const server = setupTestServer(verifyHandler(makeUser()));

/**
 * The real store, sagas, shell and page at /main/sku, signed in. Only this route is mounted (not the app's whole
 * route table), so the page is tested on its own whatever state other screens are in.
 */
function renderApp(path: string, { token }: { token: string }) {
  localStorage.setItem('token', token);
  const store = createAppStore();
  const routes = [
    {
      path: '/main',
      element: (
        <RequireAuth>
          <UserShell />
        </RequireAuth>
      ),
      children: [{ path: 'sku', element: <SkuPage /> }],
    },
  ];
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(<App store={store} router={router} />);
  return { ...view, store, router, user };
}

const sku = (i: number, overrides: Partial<Sku> = {}): Sku => ({
  _id: `s-${i}`,
  sku: `SKU-${String(i).padStart(2, '0')}`,
  maxQty: 4,
  weight: 1.5,
  length: 10,
  width: 8,
  height: 6,
  description: `Item ${i}`,
  ...overrides,
});

function listHandler(skus: Sku[]) {
  return http.get(api('auth/get-sku/:userId'), ({ params }) =>
    params.userId === 'u-1'
      ? HttpResponse.json({ SkuData: skus })
      : HttpResponse.json({ code: 'FORBIDDEN', message: 'Forbidden' }, { status: 403 }),
  );
}

async function openSkuPage(skus: Sku[]) {
  server.use(listHandler(skus));
  const app = renderApp('/main/sku', { token: 'good-token' });
  await screen.findByRole('heading', { name: 'SKU Data Management' });
  return app;
}

const tableRow = (text: string) => within(screen.getByText(text).closest('tr') as HTMLElement);
const editingRow = () => within(document.querySelector('.data-table__row--editing') as HTMLElement);
const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Saved SKUs' }))
    .getAllByRole('row')
    .slice(1);
const toastDurations = (app: ReturnType<typeof renderApp>) => app.store.getState().toast.toasts.map((t) => t.duration);

function csvFile(text: string, name = 'skus.csv') {
  return new File([text], name, { type: 'text/csv' });
}

describe('SKU page', () => {
  it('is titled SKU Management and lists the SKUs with their columns, 5 per page', async () => {
    const app = await openSkuPage(Array.from({ length: 7 }, (_, i) => sku(i + 1)));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('SKU Management');
    expect(await screen.findByText('SKU-01')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Saved SKUs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['SKU', 'Max Qty', 'Weight (lb)', 'Length (in)', 'Width (in)', 'Height (in)', 'Description', 'Actions']);
    expect(bodyRows()).toHaveLength(5);
    expect(screen.queryByText('SKU-06')).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(bodyRows()).toHaveLength(2);
    expect(screen.getByText('SKU-07')).toBeInTheDocument();
  });

  it('search filters by SKU or description regardless of case, and paging follows', async () => {
    const app = await openSkuPage([
      ...Array.from({ length: 6 }, (_, i) => sku(i + 1, { description: 'Blue mug' })),
      sku(7, { sku: 'PLATE-9', description: 'Dinner plate' }),
      sku(8, { sku: 'bowl', description: 'Soup PLATE' }),
    ]);
    await screen.findByText('SKU-01');
    const search = screen.getByRole('searchbox', { name: 'Search SKUs' });
    await app.user.type(search, 'plate');
    expect(bodyRows()).toHaveLength(2);
    expect(screen.getByText('PLATE-9')).toBeInTheDocument();
    expect(screen.getByText('bowl')).toBeInTheDocument();
    await app.user.clear(search);
    await app.user.type(search, 'sku-0');
    expect(bodyRows()).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Page 2' })).toBeInTheDocument();
    await app.user.clear(search);
    await app.user.type(search, 'nothing like it');
    expect(screen.getByText('No SKUs match your search')).toBeInTheDocument();
  });

  it('shows the empty state for a user without SKUs', async () => {
    await openSkuPage([]);
    expect(await screen.findByText('No SKU data found')).toBeInTheDocument();
  });

  it('toasts "Error fetching SKU data" with the server message for 3 s when the list cannot be read', async () => {
    server.use(
      http.get(api('auth/get-sku/:userId'), () =>
        HttpResponse.json({ code: 'SERVICE_UNAVAILABLE', message: 'Presets are unavailable' }, { status: 503 }),
      ),
    );
    const app = renderApp('/main/sku', { token: 'good-token' });
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Error fetching SKU data');
    expect(toast).toHaveTextContent('Presets are unavailable');
    expect(toastDurations(app)).toEqual([3000]);
    expect(screen.getByText('No SKU data found')).toBeInTheDocument();
  });

  describe('Add New SKU', () => {
    it('names every empty required field and sends nothing; description is optional', async () => {
      const app = await openSkuPage([]);
      await app.user.click(screen.getByRole('button', { name: 'Add New SKU' }));
      const dialog = within(screen.getByRole('dialog', { name: 'Add New SKU' }));
      await app.user.click(dialog.getByRole('button', { name: 'Add SKU' }));
      for (const message of [
        'SKU is required',
        'Max Quantity is required',
        'Weight is required',
        'Length is required',
        'Width is required',
        'Height is required',
      ]) {
        expect(dialog.getByText(message)).toBeInTheDocument();
      }
      expect(dialog.queryByText('Description is required')).not.toBeInTheDocument();
      expect(dialog.getByLabelText('Weight')).toHaveAttribute('step', '0.1');
      expect(dialog.getByLabelText('Max Quantity')).toHaveAttribute('step', '1');
    });

    it('sends the new SKU as a list of one with numbers, toasts "New SKU Data Added" for 3 s and lists it', async () => {
      const bodies: unknown[] = [];
      const added = sku(1, { sku: 'MUG', maxQty: 2, weight: 0.7, length: 5, width: 4, height: 3.5, description: '' });
      server.use(
        http.post(api('auth/add-sku/:userId'), async ({ request, params }) => {
          expect(params.userId).toBe('u-1');
          bodies.push(await request.json());
          return HttpResponse.json({ message: 'New SKU Data Added', SkuData: [added] });
        }),
      );
      const app = await openSkuPage([]);
      await app.user.click(screen.getByRole('button', { name: 'Add New SKU' }));
      const dialog = within(screen.getByRole('dialog', { name: 'Add New SKU' }));
      await app.user.type(dialog.getByLabelText('SKU'), ' MUG ');
      await app.user.type(dialog.getByLabelText('Max Quantity'), '2');
      await app.user.type(dialog.getByLabelText('Weight'), '0.7');
      await app.user.type(dialog.getByLabelText('Length'), '5');
      await app.user.type(dialog.getByLabelText('Width'), '4');
      await app.user.type(dialog.getByLabelText('Height'), '3.5');
      await app.user.click(dialog.getByRole('button', { name: 'Add SKU' }));
      const toast = await screen.findByRole('status');
      expect(toast).toHaveTextContent('New SKU Data Added');
      expect(toastDurations(app)).toEqual([3000]);
      expect(bodies).toEqual([
        { parsedData: [{ sku: 'MUG', maxQty: 2, weight: 0.7, length: 5, width: 4, height: 3.5, description: '' }] },
      ]);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(tableRow('MUG').getByText('0.7')).toBeInTheDocument();
    });

    it('a refused SKU toasts "Error adding new SKU" with the reason, which also marks the field', async () => {
      server.use(
        http.post(api('auth/add-sku/:userId'), () =>
          HttpResponse.json({ code: 'SKU_TAKEN', message: 'SKU must be unique' }, { status: 409 }),
        ),
      );
      const app = await openSkuPage([sku(1, { sku: 'MUG' })]);
      await app.user.click(screen.getByRole('button', { name: 'Add New SKU' }));
      const dialog = within(screen.getByRole('dialog', { name: 'Add New SKU' }));
      for (const [label, value] of [
        ['SKU', 'mug'],
        ['Max Quantity', '1'],
        ['Weight', '1'],
        ['Length', '1'],
        ['Width', '1'],
        ['Height', '1'],
      ] as const) {
        await app.user.type(dialog.getByLabelText(label), value);
      }
      await app.user.click(dialog.getByRole('button', { name: 'Add SKU' }));
      const toast = await screen.findByRole('alert');
      expect(toast).toHaveTextContent('Error adding new SKU');
      expect(toast).toHaveTextContent('SKU must be unique');
      expect(await dialog.findByText('SKU must be unique')).toBeInTheDocument();
      expect(dialog.getByLabelText('SKU')).toHaveAttribute('aria-invalid', 'true');
    });
  });

  describe('Upload CSV File', () => {
    it('sends every row under any-case headers, skipping empty lines, then toasts and lists the answer', async () => {
      const bodies: unknown[] = [];
      server.use(
        http.post(api('auth/add-sku/:userId'), async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json({
            message: 'New SKU Data Added',
            SkuData: [sku(1, { sku: 'A-1' }), sku(2, { sku: 'B-2' })],
          });
        }),
      );
      const app = await openSkuPage([]);
      const csv = [
        'SKU,MaxQty,Weight,Length,Width,Height,Description',
        'A-1,4,1.5,10,8,6,"Mug, blue"',
        '',
        '   ',
        'B-2, 2 ,0.5,5,5,5,',
        '',
      ].join('\r\n');
      await app.user.upload(screen.getByLabelText('CSV file of SKUs'), csvFile(csv));
      const toast = await screen.findByRole('status');
      expect(toast).toHaveTextContent('CSV Uploaded Successfully');
      expect(toastDurations(app)).toEqual([3000]);
      expect(bodies).toEqual([
        {
          parsedData: [
            { sku: 'A-1', maxQty: '4', weight: '1.5', length: '10', width: '8', height: '6', description: 'Mug, blue' },
            { sku: 'B-2', maxQty: '2', weight: '0.5', length: '5', width: '5', height: '5', description: '' },
          ],
        },
      ]);
      expect(await screen.findByText('B-2')).toBeInTheDocument();
    });

    it('the file input accepts .csv only', async () => {
      await openSkuPage([]);
      expect(screen.getByLabelText('CSV file of SKUs')).toHaveAttribute('accept', '.csv');
    });

    it('a refused file toasts "Error uploading file" with the server’s row message and lists nothing new', async () => {
      server.use(
        http.post(api('auth/add-sku/:userId'), () =>
          HttpResponse.json({ code: 'SKU_INVALID', message: 'Row 2: Weight must be greater than 0' }, { status: 400 }),
        ),
      );
      const app = await openSkuPage([]);
      await app.user.upload(
        screen.getByLabelText('CSV file of SKUs'),
        csvFile('sku,maxQty,weight,length,width,height,description\nA,1,1,1,1,1,\nB,1,0,1,1,1,\n'),
      );
      const toast = await screen.findByRole('alert');
      expect(toast).toHaveTextContent('Error uploading file');
      expect(toast).toHaveTextContent('Row 2: Weight must be greater than 0');
      expect(toastDurations(app)).toEqual([3000]);
      expect(screen.getByText('No SKU data found')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Upload CSV File' })).toBeEnabled();
    });

    it('a file with headers only toasts "Error uploading file" without calling the server', async () => {
      const app = await openSkuPage([]);
      await app.user.upload(
        screen.getByLabelText('CSV file of SKUs'),
        csvFile('sku,maxQty,weight,length,width,height,description\n\n'),
      );
      const toast = await screen.findByRole('alert');
      expect(toast).toHaveTextContent('Error uploading file');
      expect(toast).toHaveTextContent('The file has no SKU rows');
    });
  });

  describe('table rows', () => {
    it('edits a row inline with number steps, sends the whole preset and toasts the outcome', async () => {
      const bodies: unknown[] = [];
      server.use(
        http.post(api('auth/update-sku/:userId/:skuId'), async ({ request, params }) => {
          expect(params).toEqual({ userId: 'u-1', skuId: 's-2' });
          const body = (await request.json()) as { skuData: Omit<Sku, '_id'> };
          bodies.push(body);
          return HttpResponse.json({ message: 'SKU updated successfully', sku: { _id: 's-2', ...body.skuData } });
        }),
      );
      const app = await openSkuPage([sku(1), sku(2)]);
      await app.user.click(
        (await screen.findByText('SKU-02')) && tableRow('SKU-02').getByRole('button', { name: 'Edit' }),
      );
      const edit = editingRow();
      const weight = edit.getByLabelText('Weight');
      expect(weight).toHaveAttribute('step', '0.1');
      expect(edit.getByLabelText('Max Quantity')).toHaveAttribute('step', '1');
      await app.user.clear(weight);
      await app.user.type(weight, '0');
      await app.user.click(edit.getByRole('button', { name: 'Save' }));
      expect(edit.getByText('Weight must be greater than 0')).toBeInTheDocument();
      expect(bodies).toEqual([]);
      await app.user.clear(weight);
      await app.user.type(weight, '2.3');
      await app.user.click(edit.getByRole('button', { name: 'Save' }));
      const toast = await screen.findByRole('status');
      expect(toast).toHaveTextContent('Row updated successfully!');
      expect(toast).toHaveTextContent('SKU updated successfully');
      expect(bodies).toEqual([
        { skuData: { sku: 'SKU-02', maxQty: 4, weight: 2.3, length: 10, width: 8, height: 6, description: 'Item 2' } },
      ]);
      expect(tableRow('SKU-02').getByText('2.3')).toBeInTheDocument();
    });

    it('checks numbers with the server’s bounds and the spec’s texts: above 0, whole quantities, USPS maximums', async () => {
      const bodies: { skuData: Omit<Sku, '_id'> }[] = [];
      server.use(
        http.post(api('auth/update-sku/:userId/:skuId'), async ({ request }) => {
          const body = (await request.json()) as { skuData: Omit<Sku, '_id'> };
          bodies.push(body);
          return HttpResponse.json({ message: 'SKU updated successfully', sku: { _id: 's-2', ...body.skuData } });
        }),
      );
      const app = await openSkuPage([sku(1), sku(2)]);
      await app.user.click(
        (await screen.findByText('SKU-02')) && tableRow('SKU-02').getByRole('button', { name: 'Edit' }),
      );
      const refused: [string, string, string][] = [
        ['Max Quantity', '0', 'Max Quantity must be greater than 0'],
        ['Max Quantity', '-1', 'Max Quantity must be greater than 0'],
        ['Max Quantity', '1.5', 'Max Quantity must be a whole number'],
        ['Max Quantity', '10001', 'Max Quantity must be at most 10000'],
        ['Weight', '0', 'Weight must be greater than 0'],
        ['Weight', '70.5', 'Weight must be at most 70'],
        ['Weight', '1.234', 'Weight can have at most 2 decimal places'],
        ['Length', '0', 'Length must be greater than 0'],
        ['Height', '109', 'Height must be at most 108'],
      ];
      for (const [label, value, message] of refused) {
        const edit = editingRow();
        const input = edit.getByLabelText(label, { exact: true });
        const before = (input as HTMLInputElement).value;
        await app.user.clear(input);
        await app.user.type(input, value);
        await app.user.click(edit.getByRole('button', { name: 'Save' }));
        expect(editingRow().getByText(message)).toBeInTheDocument();
        await app.user.clear(input);
        await app.user.type(input, before);
      }
      expect(bodies).toEqual([]);
      // The smallest values the server takes are taken here too.
      const edit = editingRow();
      for (const [label, value] of [
        ['Max Quantity', '1'],
        ['Weight', '0.01'],
        ['Length', '0.5'],
      ] as const) {
        const input = edit.getByLabelText(label, { exact: true });
        await app.user.clear(input);
        await app.user.type(input, value);
      }
      await app.user.click(edit.getByRole('button', { name: 'Save' }));
      await screen.findByRole('status');
      expect(bodies).toEqual([
        {
          skuData: { sku: 'SKU-02', maxQty: 1, weight: 0.01, length: 0.5, width: 8, height: 6, description: 'Item 2' },
        },
      ]);
    });

    it('a refused edit toasts the failure with the server’s reason and keeps the row in edit', async () => {
      server.use(
        http.post(api('auth/update-sku/:userId/:skuId'), () =>
          HttpResponse.json({ code: 'SKU_TAKEN', message: 'SKU must be unique' }, { status: 409 }),
        ),
      );
      const app = await openSkuPage([sku(1), sku(2)]);
      await app.user.click(
        (await screen.findByText('SKU-02')) && tableRow('SKU-02').getByRole('button', { name: 'Edit' }),
      );
      const skuInput = editingRow().getByLabelText('SKU');
      await app.user.clear(skuInput);
      await app.user.type(skuInput, 'sku-01');
      await app.user.click(editingRow().getByRole('button', { name: 'Save' }));
      const toast = await screen.findByRole('alert');
      expect(toast).toHaveTextContent('Failed to update the row.');
      expect(toast).toHaveTextContent('SKU must be unique');
      expect(document.querySelector('.data-table__row--editing')).not.toBeNull();
    });

    it('deletes only after Confirm and toasts the outcome', async () => {
      const deleted: string[] = [];
      server.use(
        http.post(api('auth/delete-sku/:skuId'), ({ params }) => {
          deleted.push(String(params.skuId));
          return HttpResponse.json({ message: 'SKU deleted successfully' });
        }),
      );
      const app = await openSkuPage([sku(1), sku(2)]);
      await app.user.click(
        (await screen.findByText('SKU-01')) && tableRow('SKU-01').getByRole('button', { name: 'Delete' }),
      );
      const confirm = within(screen.getByRole('dialog'));
      expect(confirm.getByText('Are you sure you want to delete this item?')).toBeInTheDocument();
      await app.user.click(confirm.getByRole('button', { name: 'Cancel' }));
      expect(deleted).toEqual([]);
      await app.user.click(tableRow('SKU-01').getByRole('button', { name: 'Delete' }));
      await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
      const toast = await screen.findByRole('status');
      expect(toast).toHaveTextContent('Row deleted successfully!');
      expect(toast).toHaveTextContent('SKU deleted successfully');
      expect(deleted).toEqual(['s-1']);
      await waitFor(() => expect(screen.queryByText('SKU-01')).not.toBeInTheDocument());
      expect(screen.getByText('SKU-02')).toBeInTheDocument();
    });
  });
});
