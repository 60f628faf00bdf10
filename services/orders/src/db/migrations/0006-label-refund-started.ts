import type { Migration } from '@flatship/kit';

/**
 * When a pending label's refund was begun. Set before the money moves back,
 * so that whoever finishes the row after a crash (the reconciler, or a retry
 * with its Idempotency-Key) knows it may only be refunded and cancelled: a
 * charge payments has given back must never be charged again under its key
 * (payments would answer with the old charge) or pay for a label.
 */
export const addLabelRefundStarted: Migration = {
  name: '0006_label_refund_started',
  async up(db) {
    await db.raw('alter table labels add column refund_started_at timestamptz');
  },
};
