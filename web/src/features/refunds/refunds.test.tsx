import type { BatchLabel, BatchRefundReply, RefundLabelReply } from '@flatship/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeBatchOrder, makeOrderListItem, makeUser } from '../../test/fixtures';
import { api, downloadLinkHandler } from '../../test/handlers';
import { setupTestServer } from '../../test/msw';
import { renderApp } from '../../test/render-app';

// Refunds of unused labels in the user area: from Orders, and from a batch's Labels dialog (Batch Orders).

let balance = 100;
let verified = 0;
const server = setupTestServer(
  http.get(api('auth/verify'), () => {
    verified += 1;
    return HttpResponse.json({ user: makeUser({ balance }) });
  }),
  downloadLinkHandler(),
);

const ordersTable = () => within(screen.getByRole('table', { name: 'Orders List' }));
const rowOf = (text: string) => ordersTable().getByText(text).closest('tr') as HTMLElement;

describe('Refunds on the Orders page', () => {
  it('asks before refunding, sends one request, says what came back and shows the label refunded', async () => {
    let refunded = false;
    const posts: string[] = [];
    let answer!: () => void;
    const held = new Promise<void>((r) => {
      answer = r;
    });
    server.use(
      http.get(api('orders/:userId'), () =>
        HttpResponse.json({
          orders: [
            makeOrderListItem({
              _id: 'o-1',
              receiver: { receiver_name: 'Rita' },
              price: 8.95,
              ...(refunded ? { status: 'void', refundStatus: 'refunded', refundable: false } : {}),
            }),
          ],
        }),
      ),
      http.post(api('orders/labels/:labelId/refund'), async ({ params }) => {
        posts.push(String(params.labelId));
        await held;
        refunded = true;
        balance = 108.95;
        return HttpResponse.json({
          message: 'Refunded. $8.95 is back on the balance.',
          labelId: 'o-1',
          refundStatus: 'refunded',
          refundReason: null,
          credited: 8.95,
        } satisfies RefundLabelReply);
      }),
    );
    const user = userEvent.setup();
    renderApp('/main/orders', { token: 'good-token' });
    await screen.findByText('Rita');
    await user.click(within(rowOf('Rita')).getByRole('button', { name: 'Refund' }));

    const dialog = await screen.findByRole('dialog', { name: 'Refund label' });
    expect(dialog).toHaveTextContent('Refund this unused label ($8.95)?');
    // Focus starts on Keep label: a stray Enter never refunds.
    expect(within(dialog).getByRole('button', { name: 'Keep label' })).toHaveFocus();
    const verifiedBefore = verified;
    await user.click(within(dialog).getByRole('button', { name: 'Request refund' }));

    // While the request is out the button says so and cannot be pressed again.
    const busy = await within(rowOf('Rita')).findByRole('button', { name: 'Refunding...' });
    expect(busy).toBeDisabled();
    answer();

    expect(await screen.findByText('Refunded. $8.95 is back on the balance.')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf('Rita')).getByText('Refunded')).toBeInTheDocument());
    expect(within(rowOf('Rita')).queryByRole('button', { name: 'Refund' })).toBeNull();
    expect(posts).toEqual(['o-1']);
    // The balance is read again.
    await waitFor(() => expect(verified).toBeGreaterThan(verifiedBefore));
  });

  it('shows each refund state, and why a label cannot be refunded', async () => {
    server.use(
      http.get(api('orders/:userId'), () =>
        HttpResponse.json({
          orders: [
            makeOrderListItem({
              _id: 'a',
              receiver: { receiver_name: 'Asked' },
              refundStatus: 'requested',
              refundable: false,
            }),
            makeOrderListItem({
              _id: 'b',
              receiver: { receiver_name: 'Refused' },
              refundStatus: 'rejected',
              refundReason: 'USPS scanned this label, so it was used.',
              refundable: false,
            }),
            makeOrderListItem({
              _id: 'c',
              receiver: { receiver_name: 'Shipped' },
              refundable: false,
              refundBlockedReason: 'USPS has scanned this label, so it was used and cannot be refunded.',
            }),
            makeOrderListItem({
              _id: 'd',
              receiver: { receiver_name: 'Failed' },
              status: 'cancelled',
              refundable: false,
            }),
          ],
        }),
      ),
    );
    renderApp('/main/orders', { token: 'good-token' });
    await screen.findByText('Asked');
    expect(within(rowOf('Asked')).getByText('Refund requested')).toBeInTheDocument();
    expect(within(rowOf('Refused')).getByText('Refund refused')).toBeInTheDocument();
    expect(within(rowOf('Refused')).getByText('USPS scanned this label, so it was used.')).toBeInTheDocument();
    expect(within(rowOf('Shipped')).getByText('Not refundable')).toBeInTheDocument();
    expect(
      within(rowOf('Shipped')).getByText('USPS has scanned this label, so it was used and cannot be refunded.'),
    ).toBeInTheDocument();
    expect(within(rowOf('Failed')).getByText('Nothing to refund')).toBeInTheDocument();
    expect(ordersTable().queryAllByRole('button', { name: 'Refund' })).toHaveLength(0);
  });

  it("tells the server's reason when the refund is refused", async () => {
    server.use(
      http.get(api('orders/:userId'), () =>
        HttpResponse.json({ orders: [makeOrderListItem({ _id: 'o-9', receiver: { receiver_name: 'Late' } })] }),
      ),
      http.post(api('orders/labels/:labelId/refund'), () =>
        HttpResponse.json(
          {
            code: 'ORDERS_REFUND_WINDOW_PASSED',
            message: 'Labels can be refunded within 30 days of purchase; this one is older.',
          },
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp('/main/orders', { token: 'good-token' });
    await user.click(
      within(await screen.findByText('Late').then(() => rowOf('Late'))).getByRole('button', { name: 'Refund' }),
    );
    await user.click(await screen.findByRole('button', { name: 'Request refund' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Labels can be refunded within 30 days of purchase; this one is older.',
    );
    // Still refundable from the screen's point of view: the button is back.
    expect(await within(rowOf('Late')).findByRole('button', { name: 'Refund' })).toBeEnabled();
  });
});

const label = (row: number, over: Partial<BatchLabel> = {}): BatchLabel => ({
  _id: `l-${row}`,
  row,
  status: 'completed',
  serviceName: 'USPS Priority Mail',
  receiverName: `Receiver ${row}`,
  receiverPlace: 'Austin, TX 73301',
  trackingNumber: `94001000000000000000${row}`,
  price: 8.95,
  refundStatus: null,
  refundReason: null,
  refundable: true,
  refundBlockedReason: null,
  trackingStage: 'pre_transit',
  ...over,
});

describe('Refunds of a batch (Batch Orders)', () => {
  it("lists the batch's labels and refunds every unused one after asking", async () => {
    let refunded = false;
    const bodies: unknown[] = [];
    server.use(
      http.get(api('orders/bulk/u-1'), () =>
        HttpResponse.json({ bulkOrders: [makeBatchOrder({ _id: 'b-1', processedCount: 3, totalCount: 4 })] }),
      ),
      http.get(api('orders/bulk/labels/:orderId'), ({ params }) =>
        params.orderId === 'b-1'
          ? HttpResponse.json({
              labels: [
                label(1, refunded ? { status: 'void', refundStatus: 'refunded', refundable: false } : {}),
                label(2, refunded ? { status: 'void', refundStatus: 'refunded', refundable: false } : {}),
                label(3, {
                  refundable: false,
                  refundBlockedReason: 'USPS has scanned this label, so it was used and cannot be refunded.',
                }),
                label(4, { status: 'cancelled', trackingNumber: null, refundable: false }),
              ],
            })
          : HttpResponse.json({ code: 'NOT_FOUND', message: 'Bulk order not found' }, { status: 404 }),
      ),
      http.post(api('orders/bulk/refund/:orderId'), async ({ request }) => {
        bodies.push(await request.json());
        refunded = true;
        return HttpResponse.json({
          message: '2 refunded ($17.90 back on the balance)',
          asked: 2,
          refunded: 2,
          pending: 0,
          rejected: 0,
          skipped: 0,
          credited: 17.9,
        } satisfies BatchRefundReply);
      }),
    );
    const user = userEvent.setup();
    renderApp('/main/batch-orders', { token: 'good-token' });
    await user.click(await screen.findByRole('button', { name: 'Labels' }));

    const dialog = await screen.findByRole('dialog', { name: 'Labels of this batch' });
    await within(dialog).findByText('Receiver 1');
    const table = within(within(dialog).getByRole('table', { name: 'Labels of this batch' }));
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Row',
      'Receiver',
      'Label',
      'Tracking Number',
      'Tracking',
      'Price',
      'Refund',
    ]);
    expect(table.getAllByRole('button', { name: 'Refund' })).toHaveLength(2);
    expect(table.getByText('Not refundable')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Refund all unused (2)' }));
    const confirm = await screen.findByRole('dialog', { name: 'Refund unused labels' });
    expect(confirm).toHaveTextContent('Refund 2 unused labels ($17.90)?');
    await user.click(within(confirm).getByRole('button', { name: 'Request refunds' }));

    expect(await screen.findByText('2 refunded ($17.90 back on the balance)')).toBeInTheDocument();
    expect(bodies).toEqual([{}]);
    // The dialog reads the labels again: both now refunded, nothing left to refund.
    await waitFor(() => expect(table.getAllByText('Refunded')).toHaveLength(2));
    expect(within(dialog).getByRole('button', { name: 'Refund all unused (0)' })).toBeDisabled();
  });

  it('refunds one label of the batch from its row', async () => {
    const posts: string[] = [];
    server.use(
      http.get(api('orders/bulk/u-1'), () =>
        HttpResponse.json({ bulkOrders: [makeBatchOrder({ _id: 'b-2', processedCount: 2, totalCount: 2 })] }),
      ),
      http.get(api('orders/bulk/labels/:orderId'), () => HttpResponse.json({ labels: [label(1), label(2)] })),
      http.post(api('orders/labels/:labelId/refund'), ({ params }) => {
        posts.push(String(params.labelId));
        return HttpResponse.json({
          message: 'Refund requested. USPS is reviewing it; the balance is credited when it is approved.',
          labelId: String(params.labelId),
          refundStatus: 'requested',
          refundReason: null,
          credited: 0,
        } satisfies RefundLabelReply);
      }),
    );
    const user = userEvent.setup();
    renderApp('/main/batch-orders', { token: 'good-token' });
    await user.click(await screen.findByRole('button', { name: 'Labels' }));
    const dialog = await screen.findByRole('dialog', { name: 'Labels of this batch' });
    const second = (await within(dialog).findByText('Receiver 2')).closest('tr') as HTMLElement;
    await user.click(within(second).getByRole('button', { name: 'Refund' }));
    await user.click(await screen.findByRole('button', { name: 'Request refund' }));
    expect(
      await screen.findByText('Refund requested. USPS is reviewing it; the balance is credited when it is approved.'),
    ).toBeInTheDocument();
    expect(posts).toEqual(['l-2']);
  });
});
