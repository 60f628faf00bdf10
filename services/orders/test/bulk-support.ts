import type { BulkOrderItem, LabelRequestedEvent } from '@flatship/proto';
import type { CarrierPort } from '../src/domain/ports';
import { createBulkWorkerDeps, processBulkLabels } from '../src/worker';
import type { OrdersHarness, TestUser } from './support';

/** One valid bulk row as the bulk screen sends it; `i` makes rows distinguishable. */
export function bulkItem(
  i: number,
  over: {
    receiver?: Partial<BulkOrderItem['receiver']>;
    package?: Partial<BulkOrderItem['package']>;
    service_name?: string;
  } = {},
): BulkOrderItem {
  return {
    courier: 'usps',
    service_name: over.service_name ?? 'USPS Priority Mail',
    manifested: false,
    sender: {
      order_id: `112-${String(1000000 + i)}`,
      sender_name: 'Ada Sender',
      sender_phone: '555-010-0000',
      sender_company: 'Acme',
      sender_address1: '1 Main St',
      sender_address2: '',
      sender_city: 'Austin',
      sender_state_province: 'TX',
      sender_zip_postal: '73301',
      sender_country: 'US',
    },
    receiver: {
      receiver_name: `Receiver ${i}`,
      receiver_phone: '',
      receiver_company: '',
      receiver_address1: `${i + 1} Side Ave`,
      receiver_address2: '',
      receiver_city: 'Los Angeles',
      receiver_state_province: 'CA',
      receiver_zip_postal: '90001',
      receiver_country: 'US',
      ...over.receiver,
    },
    package: {
      order_item_id: `item-${i}`,
      quantity: 1 + (i % 3),
      sku_number: `SKU-${i % 5}`,
      package_length: 10,
      package_width: 8,
      package_height: 4,
      package_weight: 2,
      package_weight_unit: 'LB',
      package_description: 'Books',
      package_reference1: '',
      package_reference2: '',
      ...over.package,
    },
  };
}

export const bulkItems = (n: number, over: (i: number) => Parameters<typeof bulkItem>[1] = () => ({})) =>
  Array.from({ length: n }, (_, i) => bulkItem(i, over(i)));

export async function initBulk(h: OrdersHarness, u: TestUser, userId = u.id) {
  return h.app.inject({
    method: 'POST',
    url: '/api/orders/bulk/init',
    headers: { token: u.token },
    payload: { userId },
  });
}

export async function newOrderId(h: OrdersHarness, u: TestUser): Promise<string> {
  const res = await initBulk(h, u);
  if (res.statusCode !== 201) throw new Error(`init failed: ${res.body}`);
  return (res.json() as { data: { orderId: string } }).data.orderId;
}

export function processBulk(
  h: OrdersHarness,
  u: TestUser,
  body: { orderId: string; orderData: unknown[]; source?: string; fileName?: string },
  userId = u.id,
) {
  return h.app.inject({
    method: 'POST',
    url: `/api/orders/bulk/process/${userId}`,
    headers: { token: u.token },
    payload: body,
  });
}

export const call = (h: OrdersHarness, u: TestUser, method: 'GET' | 'POST', url: string) =>
  h.app.inject({ method, url, headers: { token: u.token } });

/**
 * Submits a bulk order of `count` rows and buys every row from `carrier` as the label worker does (files written
 * at the end); answers the order and its rows' tracking numbers in row order.
 */
export async function boughtBulkOrder(
  h: OrdersHarness,
  u: TestUser,
  count: number,
  carrier: CarrierPort,
): Promise<{ orderId: string; tracking: string[] }> {
  const orderId = await newOrderId(h, u);
  const submitted = await processBulk(h, u, { orderId, orderData: bulkItems(count) });
  if (submitted.statusCode !== 202) throw new Error(`process failed: ${submitted.body}`);
  const rows = await h.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  const events: LabelRequestedEvent[] = rows.map((r) => ({
    labelId: r.id,
    bulkOrderId: orderId,
    userId: r.user_id,
    attempt: r.attempt,
  }));
  const deps = createBulkWorkerDeps({
    db: h.db,
    outbox: h.outbox,
    ledger: h.domain.ledger,
    carrier,
    files: h.domain.files,
    logger: h.domain.logger,
    progress: { notify: () => undefined, finished: () => undefined },
    carrierRetryDelaysMs: [],
  });
  await processBulkLabels(deps, events);
  const done = await h.db('labels').where({ bulk_order_id: orderId }).orderBy('row_index');
  const unbought = done.filter((r) => r.status !== 'completed');
  if (unbought.length > 0) throw new Error(`${unbought.length} rows not bought`);
  return { orderId, tracking: done.map((r) => r.tracking_number) };
}
