import type { BatchOrder, OrderListItem } from '@flatship/proto';
import type { SessionUser } from '../features/auth/session-user';

export function makeUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    _id: 'u-1',
    name: 'Jane Shipper',
    email: 'jane@example.com',
    avatar: '',
    user_role: 'user',
    activation: 'allow',
    referralCode: 'JANE123',
    referredBy: null,
    balance: 12.5,
    totalDeposit: 100,
    totalSpent: 87.5,
    createdAt: '2026-01-10T10:00:00.000Z',
    ...overrides,
  };
}

/** A bulk order as GET /api/orders/bulk/{userId} lists it: every field the server sends. */
export function makeBatchOrder(overrides: Partial<BatchOrder> = {}): BatchOrder {
  const files = { pdfName: null, resultCSVName: null, autoConfirmCSVName: null };
  return {
    _id: 'b-1',
    createdAt: '2026-03-01T10:00:00.000Z',
    status: 'completed',
    source: 'csv',
    fileName: 'orders.csv',
    processedCount: 5,
    totalCount: 5,
    failedCount: 0,
    refundedCount: 0,
    failedLabels: [],
    bulkOrderData: { cost: 0 },
    ...files,
    fileStorageNames: { pdf: null, resultCSV: null },
    fileDisplayNames: files,
    stuckAt: null,
    ...overrides,
  };
}

/** An order as the dashboard and orders list receive it. */
export function makeOrderListItem(overrides: Partial<OrderListItem> = {}): OrderListItem {
  return {
    _id: 'o-1',
    courier: 'usps',
    service_name: 'USPS Priority Mail',
    status: 'completed',
    sender: { sender_name: 'Sender' },
    receiver: { receiver_name: 'Receiver' },
    tracking_number: '9400100000000000000000',
    pdfName: null,
    price: 8.5,
    createdAt: '2026-11-22T14:05:00.000Z',
    refundStatus: null,
    refundReason: null,
    refundable: true,
    trackingStage: 'pre_transit',
    refundBlockedReason: null,
    ...overrides,
  };
}
