import { type Static, Type } from 'typebox';

/**
 * The subset of BTCPay Server's Greenfield API (v1) that payments uses, as it
 * appears on the wire. Payments talks to a real BTCPay Server in production and
 * to the local simulator (`infra/src/btcpay`) in `make start`; both speak this.
 *
 * - Create: `POST {BTCPAY_URL}/api/v1/stores/{storeId}/invoices`, header
 *   `Authorization: token {apiKey}`, body {@link CreateInvoiceRequest}. An
 *   invoice created without `amount` is a top-up invoice: the payer chooses
 *   what to pay, and once paid its `amount` is what was paid.
 * - Read: `GET {BTCPAY_URL}/api/v1/stores/{storeId}/invoices/{invoiceId}`, same header.
 * - Webhook: `POST` to the registered URL with a {@link WebhookEvent} body and
 *   header `BTCPay-Sig: sha256=<lowercase hex HMAC-SHA256 of the raw body with the webhook secret>`.
 * - Checkout: `{checkoutLink}` is the payment page; `{origin}/modal/btcpay.js`
 *   defines `window.btcpay.showInvoice(invoiceId)`, which opens it in a modal,
 *   and `window.btcpay.onModalWillLeave(callback)`, called when the payer closes it.
 */

export const INVOICE_STATUSES = ['New', 'Processing', 'Expired', 'Invalid', 'Settled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const CreateInvoiceRequestSchema = Type.Object({
  /** Decimal string in `currency`; absent or null for a top-up invoice. */
  amount: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  currency: Type.String(),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  checkout: Type.Optional(
    Type.Object({
      redirectURL: Type.Optional(Type.String()),
      expirationMinutes: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
  ),
});
export type CreateInvoiceRequest = Static<typeof CreateInvoiceRequestSchema>;

export const InvoiceSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  storeId: Type.String(),
  /** Decimal string; "0" for a top-up invoice until it is paid. */
  amount: Type.String(),
  currency: Type.String(),
  type: Type.Union([Type.Literal('Standard'), Type.Literal('TopUp')]),
  checkoutLink: Type.String(),
  status: Type.String(),
  /** Unix seconds. */
  createdTime: Type.Integer(),
  expirationTime: Type.Integer(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
});
export type Invoice = Static<typeof InvoiceSchema>;

export const WEBHOOK_EVENT_TYPES = [
  'InvoiceCreated',
  'InvoiceReceivedPayment',
  'InvoiceProcessing',
  'InvoiceExpired',
  'InvoiceSettled',
  'InvoiceInvalid',
  'InvoicePaymentSettled',
] as const;

export const WebhookEventSchema = Type.Object({
  deliveryId: Type.String(),
  webhookId: Type.String(),
  originalDeliveryId: Type.Optional(Type.String()),
  isRedelivery: Type.Boolean(),
  /** One of {@link WEBHOOK_EVENT_TYPES}; others may come and are acknowledged without effect. */
  type: Type.String(),
  /** Unix seconds. */
  timestamp: Type.Integer(),
  storeId: Type.String(),
  invoiceId: Type.String(),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type WebhookEvent = Static<typeof WebhookEventSchema>;

export const BTCPAY_SIGNATURE_HEADER = 'btcpay-sig';
