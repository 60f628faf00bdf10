import { describe, expect, it } from 'vitest';
import { bulkOrderInitialized } from './bulk-progress-actions';
import {
  bulkProgressReducer,
  bulkProgressReset,
  initialBulkProgressState,
  progressUpdated,
  progressWindowShown,
  timerTicked,
} from './bulk-progress-slice';

const files = { pdfName: 'a.pdf', resultCSVName: 'a.csv', autoConfirmCSVName: null };

describe('bulk progress state', () => {
  it('starts hidden with status processing and empty counts', () => {
    const state = bulkProgressReducer(undefined, { type: 'init' });
    expect(state).toEqual(initialBulkProgressState());
    expect(state.orderStatus).toBe('processing');
    expect(state.isVisible).toBe(false);
  });

  it('initializing an order sets id, total, status and zero counts, shows it expanded, starts the clock and clears errors and retrying', () => {
    const dirty = {
      ...initialBulkProgressState(),
      isMinimized: true,
      error: 'e',
      statusError: 's',
      retryError: 'r',
      isRetrying: true,
      processedCount: 9,
      failedCount: 3,
      elapsedTime: 40,
    };
    const action = bulkOrderInitialized({ orderId: 'o-1', totalCount: 12 });
    const state = bulkProgressReducer(dirty, action);
    expect(state).toMatchObject({
      orderId: 'o-1',
      totalCount: 12,
      orderStatus: 'processing',
      processedCount: 0,
      failedCount: 0,
      isVisible: true,
      isMinimized: false,
      error: null,
      statusError: null,
      retryError: null,
      isRetrying: false,
      elapsedTime: 0,
      startTime: action.meta.startTime,
    });
  });

  it('showing with an order id sets the start time and resets elapsed to 0', () => {
    const before = { ...initialBulkProgressState(), orderId: 'o-1', elapsedTime: 75, startTime: 1 };
    const state = bulkProgressReducer(before, progressWindowShown({ orderId: 'o-1', startTime: 5000 }));
    expect(state).toMatchObject({ isVisible: true, startTime: 5000, elapsedTime: 0, orderId: 'o-1' });
  });

  it('showing another order forgets the previous order’s counts and files', () => {
    const before = { ...initialBulkProgressState(), orderId: 'o-1', processedCount: 5, fileData: files };
    const state = bulkProgressReducer(before, progressWindowShown({ orderId: 'o-2', startTime: 1 }));
    expect(state).toMatchObject({ orderId: 'o-2', processedCount: 0, fileData: null });
  });

  it('a progress update changes only numeric counts, and status and files when given', () => {
    const before = { ...initialBulkProgressState(), orderId: 'o-1', processedCount: 2, failedCount: 1, totalCount: 9 };
    const state = bulkProgressReducer(
      before,
      progressUpdated({ processedCount: 5, failedCount: '7', totalCount: null, status: undefined, fileData: null }),
    );
    expect(state).toMatchObject({ processedCount: 5, failedCount: 1, totalCount: 9, orderStatus: 'processing' });
    expect(state.fileData).toBeNull();
    const done = bulkProgressReducer(state, progressUpdated({ status: 'completed', fileData: files }));
    expect(done).toMatchObject({ orderStatus: 'completed', fileData: files, processedCount: 5 });
  });

  it('elapsed time is whole seconds since the start', () => {
    const before = { ...initialBulkProgressState(), orderId: 'o-1', startTime: 10_000 };
    expect(bulkProgressReducer(before, timerTicked(12_999)).elapsedTime).toBe(2);
    expect(bulkProgressReducer(before, timerTicked(13_000)).elapsedTime).toBe(3);
  });

  it('reset returns every field to its initial value', () => {
    const before = bulkProgressReducer(undefined, bulkOrderInitialized({ orderId: 'o-1', totalCount: 3 }));
    expect(bulkProgressReducer(before, bulkProgressReset())).toEqual(initialBulkProgressState());
  });
});
