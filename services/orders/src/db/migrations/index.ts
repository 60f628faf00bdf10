import type { Migration } from '@flatship/kit';
import { createLabels } from './0001-labels';
import { createOutbox } from './0002-outbox';
import { createBulkOrders } from './0003-bulk-orders';
import { addLabelIdempotency } from './0004-label-idempotency';
import { addBulkSubmitHash } from './0005-bulk-submit-hash';
import { addLabelRefundStarted } from './0006-label-refund-started';
import { relaxLabelCourier } from './0007-label-courier-any-carrier';
import { addLabelVoid } from './0008-label-void';
import { addBulkRefundedCount } from './0009-bulk-refunded-count';
import { allowFreeLabels } from './0010-free-labels';
import { addCarrierPurchases } from './0011-carrier-purchases';
import { addLabelTracking } from './0012-label-tracking';
import { addCarrierRoutes } from './0013-carrier-routes';
import { addLabelRefunds } from './0014-label-refunds';
import { addPrintSettings } from './0015-print-settings';
import { addScanForms } from './0016-scan-forms';
import { addLabelTrackingChecks } from './0017-label-tracking-checks';
import { widenMarketplaceSources } from './0018-marketplace-sources';
import { widenCarrierMemory } from './0019-carrier-memory-forms';
import { addCarrierRateSlots } from './0020-carrier-rate-slots';

export { ORDERS_SCHEMA } from './schema';

/** Applied in this order, each once; never edit one that has shipped, add the next. */
export const migrations: Migration[] = [
  createLabels,
  createOutbox,
  createBulkOrders,
  addLabelIdempotency,
  addBulkSubmitHash,
  addLabelRefundStarted,
  relaxLabelCourier,
  addLabelVoid,
  addBulkRefundedCount,
  allowFreeLabels,
  addCarrierPurchases,
  addLabelTracking,
  addCarrierRoutes,
  addLabelRefunds,
  addPrintSettings,
  addScanForms,
  addLabelTrackingChecks,
  widenMarketplaceSources,
  widenCarrierMemory,
  addCarrierRateSlots,
];
