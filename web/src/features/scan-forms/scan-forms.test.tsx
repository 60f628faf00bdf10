import type { BatchOrdersReply, CreateScanFormReply, ScanForm, ScanFormsReply } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeBatchOrder, makeUser } from '../../test/fixtures';
import { api, downloadLinkHandler, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { stubWindowOpen } from '../../test/tabs';

// SCAN forms in the user area: "Create SCAN form" for a batch (Batch Orders) and for today's single labels (Orders),
// the forms made, each downloaded through a download link, and the carrier's refusal shown in its words.

const links: { path: string; session: string | null }[] = [];
const server = setupTestServer(verifyHandler(makeUser()), downloadLinkHandler('dl-1', links));
afterEach(() => {
  vi.restoreAllMocks();
  links.length = 0;
});

const TODAY = '2026-11-24';
const form = (over: Partial<ScanForm> = {}): ScanForm => ({
  _id: 'f-1',
  scope: 'day',
  bulkOrderId: null,
  formNumber: 'SF123456789012',
  carrierId: 'sandbox-usps',
  fromText: 'Ada Sender, 1 Main St, Austin, TX 73301',
  shipDate: TODAY,
  labelCount: 3,
  createdAt: `${TODAY}T15:00:00.000Z`,
  ...over,
});
const reply = (over: Partial<ScanFormsReply> = {}): ScanFormsReply => ({
  today: TODAY,
  unmanifestedToday: 0,
  unmanifestedByOrder: {},
  forms: [],
  ...over,
});
const created = (forms: ScanForm[], message: string): CreateScanFormReply => ({
  message,
  forms,
  created: 1,
  refused: [],
});

describe('SCAN form for today (Orders)', () => {
  it('makes one form for today’s labels, shows it and opens its PDF through a download link', async () => {
    let state = reply({ unmanifestedToday: 3 });
    const posts: unknown[] = [];
    let answer!: () => void;
    const held = new Promise<void>((r) => {
      answer = r;
    });
    server.use(
      http.get(api('orders/:userId'), () => HttpResponse.json({ orders: [] })),
      http.get(api('orders/scan-forms/:userId'), ({ request }) => {
        expect(new URL(request.url).searchParams.get('timeZone')).toBeTruthy();
        return HttpResponse.json(state);
      }),
      http.post(api('orders/scan-forms/today/:userId'), async ({ request, params }) => {
        posts.push({ userId: params.userId, body: await request.json() });
        await held;
        state = reply({ unmanifestedToday: 0, forms: [form()] });
        return HttpResponse.json(created([form()], 'SCAN form created for 3 labels.'));
      }),
    );
    const { user } = renderApp('/main/orders', { token: 'good-token' });
    const button = await screen.findByRole('button', { name: 'Create SCAN form for today (3 labels)' });
    await user.click(button);
    // While it is made the button says so and cannot be pressed again.
    const busy = await screen.findByRole('button', { name: /Creating SCAN form/ });
    expect(busy).toBeDisabled();
    await user.click(busy);
    answer();

    expect(await screen.findByText('SCAN form created for 3 labels.')).toBeInTheDocument();
    expect(posts).toEqual([{ userId: 'u-1', body: { timeZone: expect.any(String) } }]);
    const list = await screen.findByRole('list', { name: "Today's SCAN forms" });
    expect(list).toHaveTextContent('SF123456789012');
    expect(list).toHaveTextContent('3 labels');
    expect(list).toHaveTextContent('Ada Sender, 1 Main St, Austin, TX 73301');
    expect(screen.getByRole('button', { name: 'Create SCAN form for today (0 labels)' })).toBeDisabled();
    expect(screen.getByText('Every label from today is on a form.')).toBeInTheDocument();

    const tabs = stubWindowOpen();
    await user.click(within(list).getByRole('button', { name: 'Download SCAN form SF123456789012 (3 labels)' }));
    await waitFor(() =>
      expect(tabs.map((t) => t.url)).toEqual(['http://localhost/api/orders/download/scan-form/f-1?token=dl-1']),
    );
    expect(links).toEqual([{ path: '/api/orders/download/scan-form/f-1', session: 'good-token' }]);
  });

  it('says when nothing waits for a form, and shows the carrier’s refusal in its words', async () => {
    server.use(
      http.get(api('orders/:userId'), () => HttpResponse.json({ orders: [] })),
      http.get(api('orders/scan-forms/:userId'), () => HttpResponse.json(reply({ unmanifestedToday: 1 }))),
      http.post(api('orders/scan-forms/today/:userId'), () =>
        HttpResponse.json(
          {
            code: 'ORDERS_SCAN_FORM_REFUSED',
            message: 'The SCAN form could not be made: a label in it cannot go on this form (already on a form).',
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = renderApp('/main/orders', { token: 'good-token' });
    await user.click(await screen.findByRole('button', { name: 'Create SCAN form for today (1 label)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The SCAN form could not be made: a label in it cannot go on this form (already on a form).',
    );
    expect(await screen.findByRole('button', { name: 'Create SCAN form for today (1 label)' })).toBeEnabled();
  });

  it('an empty day: the button is off and says why; a list that cannot load says so and can be asked again', async () => {
    let fail = true;
    server.use(
      http.get(api('orders/:userId'), () => HttpResponse.json({ orders: [] })),
      http.get(api('orders/scan-forms/:userId'), () =>
        fail
          ? HttpResponse.json({ code: 'INTERNAL', message: 'Something went wrong' }, { status: 500 })
          : HttpResponse.json(reply()),
      ),
    );
    const { user } = renderApp('/main/orders', { token: 'good-token' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Create SCAN form for today (0 labels)' })).toBeDisabled();
    expect(screen.getByText('No labels from today are waiting for a SCAN form.')).toBeInTheDocument();
  });
});

describe('SCAN forms of a batch (Batch Orders)', () => {
  it('creates the forms of a batch, one per From address, and offers each for download', async () => {
    const batches = [
      makeBatchOrder({ _id: 'b-1', fileName: 'first.csv', processedCount: 5 }),
      makeBatchOrder({ _id: 'b-2', fileName: 'second.csv', processedCount: 2, createdAt: '2026-02-01T10:00:00.000Z' }),
    ];
    const made = [
      form({ _id: 'f-a', scope: 'bulk', bulkOrderId: 'b-1', formNumber: 'SF000000000001', labelCount: 3 }),
      form({ _id: 'f-b', scope: 'bulk', bulkOrderId: 'b-1', formNumber: 'SF000000000002', labelCount: 2 }),
    ];
    let state = reply({
      unmanifestedByOrder: { 'b-1': 5 },
      forms: [form({ _id: 'f-old', scope: 'bulk', bulkOrderId: 'b-2', formNumber: 'SF000000000009', labelCount: 2 })],
    });
    const posts: string[] = [];
    server.use(
      http.get(api('orders/bulk/u-1'), () => HttpResponse.json({ bulkOrders: batches } satisfies BatchOrdersReply)),
      http.get(api('orders/scan-forms/:userId'), () => HttpResponse.json(state)),
      http.post(api('orders/scan-forms/bulk/:orderId'), ({ params }) => {
        posts.push(String(params.orderId));
        state = { ...state, unmanifestedByOrder: {}, forms: [...made].reverse().concat(state.forms) };
        return HttpResponse.json({
          ...created(made, '2 SCAN forms created for 5 labels: one per carrier, From address and day.'),
          created: 2,
        });
      }),
    );
    const { user } = renderApp('/main/batch-orders', { token: 'good-token' });
    // The batch that has its form already offers it; the other offers to make one, in its own row.
    const old = await screen.findByRole('button', { name: 'Download SCAN form SF000000000009 (2 labels)' });
    expect(old).toHaveTextContent('SCAN form');
    const create = screen.getByRole('button', { name: 'Create SCAN form' });
    expect(create.closest('tr')).not.toBe(old.closest('tr'));
    expect(within(create.closest('tr') as HTMLElement).getByText('5 labels')).toBeInTheDocument();
    await user.click(create);

    expect(
      await screen.findByText('2 SCAN forms created for 5 labels: one per carrier, From address and day.'),
    ).toBeInTheDocument();
    expect(posts).toEqual(['b-1']);
    const first = await screen.findByRole('button', { name: 'Download SCAN form SF000000000001 (3 labels)' });
    expect(first).toHaveTextContent('SCAN form 1');
    expect(screen.getByRole('button', { name: 'Download SCAN form SF000000000002 (2 labels)' })).toHaveTextContent(
      'SCAN form 2',
    );
    expect(screen.getByText('One form per From address and carrier.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create SCAN form' })).toBeNull();

    const tabs = stubWindowOpen();
    await user.click(first);
    await waitFor(() =>
      expect(tabs.map((t) => t.url)).toEqual(['http://localhost/api/orders/download/scan-form/f-a?token=dl-1']),
    );
  });

  it('a list of forms that cannot load says so above the batches, and can be asked again', async () => {
    let fail = true;
    server.use(
      http.get(api('orders/bulk/u-1'), () =>
        HttpResponse.json({ bulkOrders: [makeBatchOrder({ _id: 'b-1' })] } satisfies BatchOrdersReply),
      ),
      http.get(api('orders/scan-forms/:userId'), () =>
        fail
          ? HttpResponse.json({ code: 'SERVICE_UNAVAILABLE', message: 'Orders is unavailable' }, { status: 503 })
          : HttpResponse.json(reply({ unmanifestedByOrder: { 'b-1': 5 } })),
      ),
    );
    const { user } = renderApp('/main/batch-orders', { token: 'good-token' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('SCAN forms: Orders is unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Create SCAN form' })).toBeEnabled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
