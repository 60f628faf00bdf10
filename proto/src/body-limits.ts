const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The largest request body, in bytes, that each public call accepts. The
 * services set their Fastify `bodyLimit` from these and the gateway refuses a
 * larger body before forwarding any of it (its route table says which call
 * uses which), so the edge and the service never disagree about what fits.
 */
export const BODY_LIMITS = {
  /** Every call not named below (kit's default). */
  default: MiB,
  /** POST /api/auth/login: the gateway reads it itself for the per-email limit. */
  login: 64 * KiB,
  /** POST /api/auth/add-sku/{userId}: a CSV of the most SKUs one call may carry, with long descriptions. */
  addSku: 8 * MiB,
  /** POST /api/orders/bulk/process/{userId}: a full bulk order (BULK_MAX_ROWS rows of about 1 KB each) with room to spare. */
  bulkProcess: 16 * MiB,
  /** POST /api/orders/price/v2/bulk (and orders' internal quote): room for a BULK_MAX_ROWS-row quote even when whole shipments are sent. */
  pricing: 16 * MiB,
  /** POST /api/payment/webhook/btcpay: BTCPay's deliveries are a few hundred bytes; anything near this is not one. */
  btcpayWebhook: 64 * KiB,
} as const;
