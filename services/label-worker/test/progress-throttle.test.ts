import type { BulkOrderRecord } from '@flatship/orders/worker';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createProgressThrottle } from '../src/progress-throttle';

const order = (processed: number, status: BulkOrderRecord['status'] = 'processing'): BulkOrderRecord => ({
  id: 'o1',
  userId: 'u1',
  status,
  source: 'csv',
  fileName: null,
  totalCount: 100,
  processedCount: processed,
  failedCount: 0,
  refundedCount: 0,
  costCents: 0,
  chargeKey: null,
  submitHash: null,
  submittedAt: new Date(),
  retryCount: 0,
  retryCostCents: 0,
  pdfName: null,
  resultCsvName: null,
  autoConfirmName: null,
  stuckAt: null,
  lastProgressAt: new Date(),
  createdAt: new Date(),
  updatedAt: new Date(),
});

// The throttle's window is measured on the fake clock: no real time passes, however busy the machine.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('a burst of updates sends the first at once and only the latest when the window closes', async () => {
  const sent: number[] = [];
  const throttle = createProgressThrottle(
    async (e) => {
      sent.push(e.processedCount);
    },
    50,
    { warn() {} },
  );
  for (let i = 1; i <= 20; i++) throttle.notify(order(i));
  expect(sent).toEqual([1]);
  await vi.advanceTimersByTimeAsync(49);
  expect(sent).toEqual([1]);
  await vi.advanceTimersByTimeAsync(1);
  expect(sent).toEqual([1, 20]);
});

test('an older snapshot arriving late never replaces a newer one', async () => {
  const sent: number[] = [];
  const throttle = createProgressThrottle(
    async (e) => {
      sent.push(e.processedCount);
    },
    50,
    { warn() {} },
  );
  throttle.notify(order(1));
  throttle.notify(order(9));
  throttle.notify(order(7));
  await throttle.flush();
  expect(sent).toEqual([1, 9]);
});

test('an update held back is dropped once the order finishes, so nothing stale follows the final event', async () => {
  const sent: number[] = [];
  const throttle = createProgressThrottle(
    async (e) => {
      sent.push(e.processedCount);
    },
    50,
    { warn() {} },
  );
  throttle.notify(order(1));
  throttle.notify(order(99, 'processing'));
  throttle.finished('o1');
  await vi.advanceTimersByTimeAsync(1000);
  expect(sent).toEqual([1]);
  // A later retry of the same order is reported again.
  throttle.notify(order(100, 'retrying_failed'));
  expect(sent).toEqual([1, 100]);
});
