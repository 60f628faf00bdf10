import { describe, expect, it } from 'vitest';
import { initialBulkProgressState } from './bulk-progress-slice';
import {
  canRetry,
  failedLine,
  failureMessage,
  formatElapsed,
  isClosable,
  progressPercent,
  progressTitle,
  progressTone,
  retryLabel,
} from './bulk-progress-view';

const view = (overrides: Partial<ReturnType<typeof initialBulkProgressState>> = {}) => ({
  ...initialBulkProgressState(),
  orderId: 'o-1',
  totalCount: 10,
  ...overrides,
});
const files = { pdfName: 'labels.pdf', resultCSVName: 'results.csv', autoConfirmCSVName: null };

describe('progress window titles', () => {
  it.each([
    [{ error: 'boom' }, 'Order Processing Failed!'],
    [{ statusError: 'lost' }, 'Status Update Failed'],
    [{ orderStatus: 'completed' }, 'Order Processed Successfully!'],
    [{ orderStatus: 'completed_with_errors', failedCount: 1 }, 'Order Processed With 1 Failed Label(s)'],
    [{ orderStatus: 'completed_with_errors', failedCount: 3 }, 'Order Processed With 3 Failed Label(s)'],
    [{ orderStatus: 'failed' }, 'Order Processing Failed!'],
    [{ orderStatus: 'retrying_failed', failedCount: 2 }, 'Retrying 2 Failed Label(s)...'],
    [{ orderStatus: 'processing', processedCount: 4 }, 'Processing Bulk Order'],
    [{ orderStatus: 'processing', processedCount: 10 }, 'Finalizing Order...'],
    [{ orderStatus: 'processing', processedCount: 10, fileData: files }, 'Order Processed Successfully!'],
  ] as const)('%o reads %s', (overrides, title) => {
    expect(progressTitle(view(overrides))).toBe(title);
  });

  it('an error outranks the status, and an initial error outranks a status error', () => {
    expect(progressTitle(view({ orderStatus: 'completed', error: 'x', statusError: 'y' }))).toBe(
      'Order Processing Failed!',
    );
    expect(progressTitle(view({ orderStatus: 'completed', statusError: 'y' }))).toBe('Status Update Failed');
  });
});

describe('progress bar', () => {
  it.each([
    [{ orderStatus: 'processing' }, 'blue'],
    [{ orderStatus: 'retrying_failed' }, 'blue'],
    [{ orderStatus: 'generating_files' }, 'blue'],
    [{ orderStatus: 'completed' }, 'green'],
    [{ orderStatus: 'completed_with_errors' }, 'yellow'],
    [{ orderStatus: 'failed' }, 'red'],
    [{ orderStatus: 'processing', error: 'x' }, 'red'],
    [{ orderStatus: 'completed', statusError: 'x' }, 'red'],
  ] as const)('%o is %s', (overrides, tone) => {
    expect(progressTone(view(overrides))).toBe(tone);
  });

  it('is the rounded share processed, 0 without a total, full on completed or failed', () => {
    expect(progressPercent(view({ processedCount: 1, totalCount: 3 }))).toBe(33);
    expect(progressPercent(view({ processedCount: 2, totalCount: 3 }))).toBe(67);
    expect(progressPercent(view({ processedCount: 0, totalCount: 0 }))).toBe(0);
    expect(progressPercent(view({ orderStatus: 'completed', processedCount: 0, totalCount: 5 }))).toBe(100);
    expect(progressPercent(view({ orderStatus: 'failed', processedCount: 1, totalCount: 5 }))).toBe(100);
    expect(progressPercent(view({ orderStatus: 'completed_with_errors', processedCount: 4, totalCount: 5 }))).toBe(80);
  });
});

describe('close rules', () => {
  it('closes only at a terminal status or with an error, never during a retry', () => {
    expect(isClosable(view({ orderStatus: 'processing' }))).toBe(false);
    expect(isClosable(view({ orderStatus: 'generating_files' }))).toBe(false);
    expect(isClosable(view({ orderStatus: 'retrying_failed' }))).toBe(false);
    expect(isClosable(view({ orderStatus: 'completed' }))).toBe(true);
    expect(isClosable(view({ orderStatus: 'completed_with_errors' }))).toBe(true);
    expect(isClosable(view({ orderStatus: 'failed' }))).toBe(true);
    expect(isClosable(view({ orderStatus: 'processing', error: 'x' }))).toBe(true);
    expect(isClosable(view({ orderStatus: 'processing', statusError: 'x' }))).toBe(true);
    expect(isClosable(view({ orderStatus: 'completed_with_errors', isRetrying: true }))).toBe(false);
  });
});

describe('messages', () => {
  it('names the failed labels unless a retry of them is running', () => {
    expect(failureMessage(view({ failedCount: 2, orderStatus: 'completed_with_errors' }))).toBe(
      '2 label(s) failed to process. Please check the error logs.',
    );
    expect(failureMessage(view({ failedCount: 2, orderStatus: 'retrying_failed' }))).toBeNull();
    expect(failureMessage(view({ failedCount: 0 }))).toBeNull();
  });

  it('says how far a failed order got', () => {
    expect(failedLine(view({ orderStatus: 'failed', processedCount: 3, totalCount: 8 }))).toBe(
      'Processing failed (3 of 8 completed)',
    );
    expect(failedLine(view({ orderStatus: 'completed' }))).toBeNull();
  });

  it('offers the retry for completed_with_errors with failures, labelled by count or as running', () => {
    expect(canRetry(view({ orderStatus: 'completed_with_errors', failedCount: 2 }))).toBe(true);
    expect(canRetry(view({ orderStatus: 'completed_with_errors', failedCount: 0 }))).toBe(false);
    expect(canRetry(view({ orderStatus: 'completed', failedCount: 2 }))).toBe(false);
    expect(retryLabel(view({ failedCount: 2 }))).toBe('Retry 2 Failed Label(s)');
    expect(retryLabel(view({ failedCount: 1 }))).toBe('Retry 1 Failed Label(s)');
    expect(retryLabel(view({ failedCount: 2, isRetrying: true }))).toBe('Retrying...');
  });
});

describe('elapsed time', () => {
  it('reads mm:ss below an hour and h:mm:ss from an hour', () => {
    expect(formatElapsed(0)).toBe('00:00');
    expect(formatElapsed(5)).toBe('00:05');
    expect(formatElapsed(65)).toBe('01:05');
    expect(formatElapsed(3599)).toBe('59:59');
    expect(formatElapsed(3600)).toBe('1:00:00');
    expect(formatElapsed(3725)).toBe('1:02:05');
    expect(formatElapsed(36000 + 61)).toBe('10:01:01');
  });
});
