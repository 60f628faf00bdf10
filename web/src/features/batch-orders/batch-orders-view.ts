import { FORCE_RECOVERABLE_BULK_STATUSES, noConfirmationFileNote } from '@flatship/proto';
import type { BatchOrder } from './batch-orders-api';

export type BatchTone = 'green' | 'yellow' | 'red' | 'blue' | 'orange' | 'grey';

const ERROR_STATUSES = ['failed', 'processing_error', 'retry_processing_error', 'recovery_failed'];
const RUNNING_STATUSES = ['processing', 'retrying_failed'];

const STATUS_TEXT: Record<string, string> = {
  processing: 'Processing',
  generating_files: 'Files Generation Stuck',
  completed: 'Completed',
  completed_with_errors: 'Completed with errors',
  failed: 'Failed',
  retrying_failed: 'Retrying Failed',
  processing_error: 'Processing Error',
  retry_processing_error: 'Retry Processing Error',
  recovery_failed: 'Recovery Failed',
};

export const isErrorStatus = (status: string) => ERROR_STATUSES.includes(status);
const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : Number(n) || 0);

/** Whole hours since the order got stuck, or null without a usable stuckAt. */
export function stuckHours(stuckAt: string | null | undefined, now: number): number | null {
  if (!stuckAt) return null;
  const at = new Date(stuckAt).getTime();
  return Number.isNaN(at) ? null : Math.max(0, Math.floor((now - at) / 3_600_000));
}

/** Status cell text and colour (spec doc 2 §4 "List display of status"). */
export function batchStatusDisplay(order: BatchOrder, now = Date.now()): { text: string; tone: BatchTone } {
  const { status } = order;
  const failed = count(order.failedCount);
  if (status === 'completed') return { text: STATUS_TEXT.completed as string, tone: 'green' };
  if (status === 'completed_with_errors') return { text: `Completed with errors (${failed} failed)`, tone: 'yellow' };
  if (status === 'generating_files') return { text: STATUS_TEXT.generating_files as string, tone: 'orange' };
  if (RUNNING_STATUSES.includes(status)) return { text: STATUS_TEXT[status] as string, tone: 'blue' };
  if (isErrorStatus(status)) {
    let text =
      status === 'processing_error' && count(order.processedCount) === 0 && failed === 0
        ? 'Processing Error - Manual Review Required'
        : (STATUS_TEXT[status] as string);
    const hours = stuckHours(order.stuckAt, now);
    if (hours !== null) text += ` (stuck for ${hours} hour${hours === 1 ? '' : 's'})`;
    return { text, tone: 'red' };
  }
  return { text: status || 'Unknown', tone: 'grey' };
}

export type BatchAction = 'retry' | 'fix' | 'forceRecovery' | 'progress';

/** Whether an order's files are stuck, so that Force Recovery is offered (the spec's Download text names it). */
export const isForceRecoverable = (status: string) =>
  (FORCE_RECOVERABLE_BULK_STATUSES as readonly string[]).includes(status);

/**
 * Actions column (spec doc 2 §4): an empty list reads 'No Actions'. Force Recovery, which the Download column's
 * 'Files Generation Stuck - Use Force Recovery' and 'Recovery Failed - Try Again' point to, comes with them.
 * Rows an admin refunded are not missing: Fix Batch is offered only while processed and refunded fall short.
 */
export function batchActions(order: BatchOrder): BatchAction[] {
  const actions: BatchAction[] = [];
  const processed = count(order.processedCount) + count(order.refundedCount);
  const total = count(order.totalCount);
  if (order.status === 'completed_with_errors' && count(order.failedCount) > 0) actions.push('retry');
  if (processed < total && order.status !== 'processing') actions.push('fix');
  if (isForceRecoverable(order.status)) actions.push('forceRecovery');
  // A running order has no action of its own; its progress can be followed live instead.
  if (RUNNING_STATUSES.includes(order.status)) actions.push('progress');
  return actions;
}

export type DownloadCell =
  | { kind: 'text'; text: string }
  /** `noTrackingFile`: what to do instead of an Auto Confirm file, for a marketplace that takes none. */
  | { kind: 'files'; hasAutoConfirm: boolean; noTrackingFile: string | null };

/** Download column (spec doc 2 §4). */
export function batchDownloadCell(order: BatchOrder): DownloadCell {
  const { status } = order;
  if (status === 'generating_files') return { kind: 'text', text: 'Files Generation Stuck - Use Force Recovery' };
  if (status === 'recovery_failed') return { kind: 'text', text: 'Recovery Failed - Try Again' };
  if (isErrorStatus(status) && count(order.processedCount) === 0) return { kind: 'text', text: 'No files available' };
  if (RUNNING_STATUSES.includes(status)) return { kind: 'text', text: 'Processing...' };
  const hasAutoConfirm = Boolean(order.autoConfirmCSVName);
  return {
    kind: 'files',
    hasAutoConfirm,
    noTrackingFile: hasAutoConfirm ? null : noConfirmationFileNote(order.source),
  };
}
