import type { BatchLabel, LabelTrackingReply, OrderListItem } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeBatchOrder, makeOrderListItem, makeUser } from '../../test/fixtures';
import { api, verifyHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

const server = setupTestServer(verifyHandler(makeUser()));

const label = (i: number, over: Partial<OrderListItem> = {}) =>
  makeOrderListItem({
    _id: `l-${i}`,
    tracking_number: `940010000000000000000${i}`,
    receiver: { receiver_name: `Receiver ${i}` },
    createdAt: new Date(2026, 11, i, 9, 0).toISOString(),
    ...over,
  });

const LABELS = [
  label(1, { trackingStage: 'delivered', refundable: false }),
  label(2, { trackingStage: 'in_transit', refundable: false, refundBlockedReason: 'USPS has scanned this label.' }),
  label(3, { trackingStage: 'pre_transit' }),
  label(4, { status: 'cancelled', trackingStage: null, tracking_number: '', refundable: false }),
  label(5, { trackingStage: 'exception', refundable: false }),
];

/** The orders route, answering with the labels at the asked stage; the queries it was asked. */
function ordersServer() {
  const queries: string[] = [];
  server.use(
    http.get(api('orders/:userId'), ({ request }) => {
      const tracking = new URL(request.url).searchParams.get('tracking');
      queries.push(tracking ?? '');
      return HttpResponse.json({ orders: LABELS.filter((l) => !tracking || l.trackingStage === tracking) });
    }),
  );
  return queries;
}

const EVENTS: LabelTrackingReply = {
  labelId: 'l-2',
  trackingNumber: '9400100000000000000002',
  stage: 'in_transit',
  detail: null,
  estimatedDelivery: '2026-12-09',
  updatedAt: '2026-12-06T10:00:00.000Z',
  events: [
    {
      at: '2026-12-06T09:30:00.000Z',
      stage: 'in_transit',
      description: 'Arrived at USPS Regional Facility',
      place: 'JERSEY CITY, NJ 07097',
    },
    { at: '2026-12-05T18:00:00.000Z', stage: 'in_transit', description: 'USPS in possession of item', place: '' },
    {
      at: '2026-12-05T09:00:00.000Z',
      stage: 'pre_transit',
      description: 'Shipping Label Created, USPS Awaiting Item',
      place: '',
    },
  ],
};

const table = () => within(screen.getByRole('table', { name: 'Orders List' }));
const receivers = () =>
  table()
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[2]?.textContent);

describe('Orders: tracking', () => {
  it('shows each label’s tracking stage, and a dash for a label with nothing to track', async () => {
    ordersServer();
    renderApp('/main/orders', { token: 'good-token' });
    await screen.findByText('Receiver 5');
    const stageOf = (receiver: string) => {
      const row = table().getByText(receiver).closest('tr') as HTMLElement;
      return within(row).getAllByRole('cell')[4]?.textContent;
    };
    expect(stageOf('Receiver 1')).toBe('DeliveredEvents');
    expect(stageOf('Receiver 2')).toBe('In transitEvents');
    expect(stageOf('Receiver 3')).toBe('Pre-transitEvents');
    expect(stageOf('Receiver 4')).toBe('—Nothing to track');
    expect(stageOf('Receiver 5')).toBe('ExceptionEvents');
    expect(table().getByText('Exception')).toHaveClass('tracking-badge--exception');
  });

  it('filters on the server by tracking stage, keeps the filter in the address, and says when none match', async () => {
    const queries = ordersServer();
    const app = renderApp('/main/orders', { token: 'good-token' });
    await screen.findByText('Receiver 5');
    const filter = screen.getByLabelText('Tracking status');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Any status', 'Pre-transit', 'In transit', 'Out for delivery', 'Delivered', 'Exception']);

    await app.user.selectOptions(filter, 'In transit');
    await waitFor(() => expect(receivers()).toEqual(['Receiver 2']));
    expect(app.router.state.location.search).toBe('?tracking=in_transit');
    expect(queries.at(-1)).toBe('in_transit');

    await app.user.selectOptions(filter, 'Out for delivery');
    expect(await screen.findByText('No orders are out for delivery')).toBeInTheDocument();

    await app.user.selectOptions(filter, 'Any status');
    await waitFor(() => expect(receivers()).toHaveLength(5));
    expect(app.router.state.location.search).toBe('');
    expect(queries).toEqual(['', 'in_transit', 'out_for_delivery', '']);
  });

  it('opens with the filter the address names; a value that is no stage lists everything', async () => {
    const queries = ordersServer();
    renderApp('/main/orders?tracking=delivered', { token: 'good-token' });
    await waitFor(() => expect(receivers()).toEqual(['Receiver 1']));
    expect(screen.getByLabelText('Tracking status')).toHaveValue('delivered');
    expect(queries).toEqual(['delivered']);
  });

  it('a refund after filtering keeps the filter when the list is read again', async () => {
    const queries = ordersServer();
    server.use(
      http.post(api('orders/labels/:id/refund'), () =>
        HttpResponse.json({
          message: 'Refunded.',
          labelId: 'l-3',
          refundStatus: 'refunded',
          refundReason: null,
          credited: 8.5,
        }),
      ),
    );
    const app = renderApp('/main/orders?tracking=pre_transit', { token: 'good-token' });
    await waitFor(() => expect(receivers()).toEqual(['Receiver 3']));
    await app.user.click(table().getByRole('button', { name: 'Refund' }));
    await app.user.click(screen.getByRole('button', { name: 'Request refund' }));
    await waitFor(() => expect(queries.length).toBeGreaterThanOrEqual(2));
    expect(new Set(queries)).toEqual(new Set(['pre_transit']));
  });

  it('opens a label’s events from the keyboard, newest first with time, place and expected delivery; Escape closes and focus returns', async () => {
    ordersServer();
    const asked: string[] = [];
    // The answer waits until the test has seen the dialog loading.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get(api('orders/labels/:labelId/tracking'), async ({ params }) => {
        asked.push(String(params.labelId));
        await answered;
        return HttpResponse.json(EVENTS);
      }),
    );
    const app = renderApp('/main/orders', { token: 'good-token' });
    await screen.findByText('Receiver 5');
    const open = screen.getByRole('button', {
      name: 'In transit: show the tracking events of label 9400100000000000000002',
    });
    open.focus();
    await app.user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Tracking 9400100000000000000002' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading tracking...');
    answer();
    const events = await within(dialog).findByRole('list', { name: 'Tracking events, newest first' });
    expect(asked).toEqual(['l-2']);
    expect(
      within(events)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '06-12-2026 09:30Arrived at USPS Regional FacilityJERSEY CITY, NJ 07097',
      '05-12-2026 18:00USPS in possession of item',
      '05-12-2026 09:00Shipping Label Created, USPS Awaiting Item',
    ]);
    expect(within(dialog).getByText('Expected delivery').nextElementSibling).toHaveTextContent('Wed, 9 Dec 2026');
    expect(within(dialog).getByText('In transit')).toHaveClass('tracking-badge--in_transit');

    await app.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(open).toHaveFocus();

    // Space opens it too.
    await app.user.keyboard(' ');
    expect(await screen.findByRole('dialog', { name: 'Tracking 9400100000000000000002' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says why when the events cannot be loaded, and when there are none yet', async () => {
    ordersServer();
    server.use(
      http.get(api('orders/labels/l-5/tracking'), () =>
        HttpResponse.json({ code: 'NOT_FOUND', message: 'Label not found' }, { status: 404 }),
      ),
      http.get(api('orders/labels/l-3/tracking'), () =>
        HttpResponse.json({
          ...EVENTS,
          labelId: 'l-3',
          stage: 'pre_transit',
          estimatedDelivery: null,
          updatedAt: null,
          events: [],
        }),
      ),
    );
    const app = renderApp('/main/orders', { token: 'good-token' });
    await screen.findByText('Receiver 5');
    await app.user.click(screen.getByRole('button', { name: /^Exception: show the tracking events/ }));
    const failed = await screen.findByRole('dialog');
    expect(await within(failed).findByRole('alert')).toHaveTextContent('Label not found');
    await app.user.keyboard('{Escape}');

    await app.user.click(screen.getByRole('button', { name: /^Pre-transit: show the tracking events/ }));
    const empty = await screen.findByRole('dialog');
    expect(await within(empty).findByText(/No tracking events yet/)).toBeInTheDocument();
    expect(within(empty).getByText('Last update from USPS').nextElementSibling).toHaveTextContent('None yet');
    expect(within(empty).queryByText('Expected delivery')).toBeNull();
  });

  it('a batch’s labels show their stage, and a label’s events open over the batch; Escape closes only them', async () => {
    const batchLabel = (row: number, trackingStage: BatchLabel['trackingStage']): BatchLabel => ({
      _id: `l-${row}`,
      row,
      status: 'completed',
      serviceName: 'USPS Priority Mail',
      receiverName: `Receiver ${row}`,
      receiverPlace: 'Austin, TX 73301',
      trackingNumber: `940010000000000000000${row}`,
      price: 8.95,
      refundStatus: null,
      refundReason: null,
      refundable: trackingStage === 'pre_transit',
      refundBlockedReason: null,
      trackingStage,
    });
    server.use(
      http.get(api('orders/bulk/u-1'), () => HttpResponse.json({ bulkOrders: [makeBatchOrder({ _id: 'b-1' })] })),
      http.get(api('orders/bulk/labels/b-1'), () =>
        HttpResponse.json({ labels: [batchLabel(1, 'pre_transit'), batchLabel(2, 'out_for_delivery')] }),
      ),
      http.get(api('orders/labels/l-2/tracking'), () =>
        HttpResponse.json({ ...EVENTS, stage: 'out_for_delivery', events: EVENTS.events.slice(0, 1) }),
      ),
    );
    const app = renderApp('/main/batch-orders', { token: 'good-token' });
    await app.user.click(await screen.findByRole('button', { name: 'Labels' }));
    const labels = await screen.findByRole('dialog', { name: 'Labels of this batch' });
    const open = await within(labels).findByRole('button', { name: /^Out for delivery: show the tracking events/ });
    await app.user.click(open);
    const tracking = await screen.findByRole('dialog', { name: 'Tracking 9400100000000000000002' });
    await within(tracking).findByText('Arrived at USPS Regional Facility');
    await app.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Tracking/ })).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Labels of this batch' })).toBeInTheDocument();
    expect(open).toHaveFocus();
  });
});
