import { isTerminalBulkStatus, noConfirmationFileNote } from '@flatship/proto';
import type { BulkProgressState } from './bulk-progress-slice';

export const CLOSE_HINT = 'Please wait for processing to complete';

type View = Pick<
  BulkProgressState,
  'orderStatus' | 'processedCount' | 'failedCount' | 'totalCount' | 'fileData' | 'error' | 'statusError' | 'isRetrying'
>;

/**
 * Where the Auto-Confirm download would be, once the order's files are there: for a marketplace that takes no
 * tracking file (proto's marketplace list), what the seller does instead. Null when there is a file, or the
 * order's marketplace is unknown or takes one.
 */
export function noTrackingFileNote(view: Pick<BulkProgressState, 'source' | 'fileData'>): string | null {
  if (!hasFiles(view) || view.fileData?.autoConfirmCSVName) return null;
  return noConfirmationFileNote(view.source);
}

// The spec's own wording, 'Label(s)', whatever the count.
const labels = (n: number) => `${n} Failed Label(s)`;

export function hasFiles(view: Pick<View, 'fileData'>): boolean {
  const f = view.fileData;
  return Boolean(f && (f.pdfName || f.resultCSVName || f.autoConfirmCSVName));
}

/** The expanded window's heading (spec doc 2 §4 "Expanded titles"). */
export function progressTitle(view: View): string {
  if (view.error) return 'Order Processing Failed!';
  if (view.statusError) return 'Status Update Failed';
  switch (view.orderStatus) {
    case 'completed':
      return 'Order Processed Successfully!';
    case 'completed_with_errors':
      return `Order Processed With ${labels(view.failedCount)}`;
    case 'failed':
      return 'Order Processing Failed!';
    case 'retrying_failed':
      return `Retrying ${labels(view.failedCount)}...`;
    default:
      if (view.totalCount > 0 && view.processedCount === view.totalCount) {
        return hasFiles(view) ? 'Order Processed Successfully!' : 'Finalizing Order...';
      }
      return 'Processing Bulk Order';
  }
}

export type ProgressTone = 'blue' | 'green' | 'yellow' | 'red';

/** Bar colour: red on failure or error, green / yellow when done, blue while running. */
export function progressTone(view: View): ProgressTone {
  if (view.error || view.statusError || view.orderStatus === 'failed') return 'red';
  if (view.orderStatus === 'completed') return 'green';
  if (view.orderStatus === 'completed_with_errors') return 'yellow';
  return 'blue';
}

/** Rounded processed / total; full on completed or failed; 0 without a total. */
export function progressPercent(view: Pick<View, 'orderStatus' | 'processedCount' | 'totalCount'>): number {
  if (view.orderStatus === 'completed' || view.orderStatus === 'failed') return 100;
  if (view.totalCount <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((view.processedCount / view.totalCount) * 100)));
}

/** Closable once finished or failed, never while a retry runs (spec doc 2 §4). */
export function isClosable(view: View): boolean {
  if (view.isRetrying) return false;
  return isTerminalBulkStatus(view.orderStatus) || Boolean(view.error || view.statusError);
}

export function failureMessage(view: Pick<View, 'failedCount' | 'orderStatus'>): string | null {
  if (view.failedCount <= 0 || view.orderStatus === 'retrying_failed') return null;
  return `${view.failedCount} label(s) failed to process. Please check the error logs.`;
}

/** 'Processing failed (X of Y completed)' for a failed order. */
export function failedLine(view: Pick<View, 'orderStatus' | 'processedCount' | 'totalCount'>): string | null {
  if (view.orderStatus !== 'failed') return null;
  return `Processing failed (${view.processedCount} of ${view.totalCount} completed)`;
}

/** Shown for completed_with_errors with failures, and kept (as 'Retrying...') while this window's retry runs. */
export const canRetry = (view: Pick<View, 'orderStatus' | 'failedCount' | 'isRetrying'>) =>
  view.isRetrying || (view.orderStatus === 'completed_with_errors' && view.failedCount > 0);

export const retryLabel = (view: Pick<View, 'isRetrying' | 'failedCount'>) =>
  view.isRetrying ? 'Retrying...' : `Retry ${labels(view.failedCount)}`;

const two = (n: number) => String(n).padStart(2, '0');

/** mm:ss, or h:mm:ss from an hour (spec doc 2 §9). */
export function formatElapsed(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}

/** Inconsistent combinations are only logged (spec doc 2 §8). */
export function warnIfInconsistent(view: Pick<View, 'orderStatus' | 'failedCount'>): void {
  if (view.orderStatus === 'completed' && view.failedCount > 0) {
    console.warn(`Bulk order is completed but reports ${view.failedCount} failed label(s)`);
  } else if (view.orderStatus === 'completed_with_errors' && view.failedCount === 0) {
    console.warn('Bulk order is completed_with_errors but reports no failed labels');
  }
}
