import { describe, expect, it } from 'vitest';
import { makeBatchOrder } from '../../test/fixtures';
import type { BatchOrder } from './batch-orders-api';
import { batchActions, batchDownloadCell, batchStatusDisplay } from './batch-orders-view';

const order = (overrides: Partial<BatchOrder> = {}): BatchOrder => makeBatchOrder(overrides);
const NOW = new Date('2026-03-01T15:30:00.000Z').getTime();

describe('batch status display', () => {
  it.each([
    [{ status: 'completed' }, 'Completed', 'green'],
    [{ status: 'completed_with_errors', failedCount: 2 }, 'Completed with errors (2 failed)', 'yellow'],
    [{ status: 'failed' }, 'Failed', 'red'],
    [{ status: 'recovery_failed' }, 'Recovery Failed', 'red'],
    [{ status: 'retry_processing_error' }, 'Retry Processing Error', 'red'],
    [{ status: 'processing_error', processedCount: 2 }, 'Processing Error', 'red'],
    [
      { status: 'processing_error', processedCount: 0, failedCount: 0 },
      'Processing Error - Manual Review Required',
      'red',
    ],
    [{ status: 'processing' }, 'Processing', 'blue'],
    [{ status: 'retrying_failed' }, 'Retrying Failed', 'blue'],
    [{ status: 'generating_files' }, 'Files Generation Stuck', 'orange'],
    [{ status: 'failed', stuckAt: '2026-03-01T10:00:00.000Z' }, 'Failed (stuck for 5 hours)', 'red'],
    [{ status: 'recovery_failed', stuckAt: '2026-03-01T14:00:00.000Z' }, 'Recovery Failed (stuck for 1 hour)', 'red'],
  ] as const)('%o reads %s in %s', (overrides, text, tone) => {
    expect(batchStatusDisplay(order(overrides), NOW)).toEqual({ text, tone });
  });
});

describe('batch actions', () => {
  it('offers Retry Failed for completed_with_errors with failures', () => {
    expect(batchActions(order({ status: 'completed_with_errors', failedCount: 2, processedCount: 5 }))).toEqual([
      'retry',
    ]);
    expect(batchActions(order({ status: 'completed_with_errors', failedCount: 0 }))).toEqual([]);
  });
  it('offers Fix Batch when processed is below total and the order is not processing', () => {
    expect(batchActions(order({ status: 'processing_error', processedCount: 2, totalCount: 5 }))).toEqual(['fix']);
    expect(batchActions(order({ status: 'processing', processedCount: 2, totalCount: 5 }))).toEqual(['progress']);
    expect(batchActions(order({ status: 'generating_files', processedCount: 4, totalCount: 5 }))).toEqual([
      'fix',
      'forceRecovery',
    ]);
  });
  it('offers Force Recovery for an order stuck generating files or whose recovery failed, and only then', () => {
    expect(batchActions(order({ status: 'generating_files', processedCount: 5, totalCount: 5 }))).toEqual([
      'forceRecovery',
    ]);
    expect(batchActions(order({ status: 'recovery_failed', processedCount: 5, totalCount: 5 }))).toEqual([
      'forceRecovery',
    ]);
    for (const status of ['completed', 'completed_with_errors', 'failed', 'processing', 'processing_error'] as const) {
      expect(batchActions(order({ status, processedCount: 5, totalCount: 5 }))).not.toContain('forceRecovery');
    }
  });
  it('counts rows an admin refunded as settled: no Fix Batch for a finished order that holds some', () => {
    expect(batchActions(order({ status: 'completed', processedCount: 3, refundedCount: 2, totalCount: 5 }))).toEqual(
      [],
    );
  });
  it('has no actions for a finished order without failures', () => {
    expect(batchActions(order())).toEqual([]);
  });
});

describe('batch download column', () => {
  it.each([
    [{ status: 'generating_files' }, 'Files Generation Stuck - Use Force Recovery'],
    [{ status: 'recovery_failed' }, 'Recovery Failed - Try Again'],
    [{ status: 'processing_error', processedCount: 0 }, 'No files available'],
    [{ status: 'failed', processedCount: 0 }, 'No files available'],
    [{ status: 'processing' }, 'Processing...'],
    [{ status: 'retrying_failed' }, 'Processing...'],
  ] as const)('%o reads %s', (overrides, text) => {
    expect(batchDownloadCell(order(overrides))).toEqual({ kind: 'text', text });
  });
  const CSV_NOTE = 'A CSV template order has no tracking file: the Results CSV lists every tracking number.';
  it('finished orders get files, Auto Confirm only with its file', () => {
    expect(batchDownloadCell(order())).toEqual({ kind: 'files', hasAutoConfirm: false, noTrackingFile: CSV_NOTE });
    expect(batchDownloadCell(order({ source: 'amazon', autoConfirmCSVName: 'a.tsv' }))).toEqual({
      kind: 'files',
      hasAutoConfirm: true,
      noTrackingFile: null,
    });
    expect(batchDownloadCell(order({ status: 'processing_error', processedCount: 3 }))).toEqual({
      kind: 'files',
      hasAutoConfirm: false,
      noTrackingFile: CSV_NOTE,
    });
  });
  it('says, for a marketplace that takes no tracking file, what to do instead of an Auto Confirm file', () => {
    expect(batchDownloadCell(order({ source: 'shopify' }))).toMatchObject({
      noTrackingFile: 'Shopify takes no tracking file: mark orders shipped in Shopify (or with a Shopify app).',
    });
    expect(batchDownloadCell(order({ source: 'etsy' }))).toMatchObject({
      noTrackingFile: 'Etsy takes no tracking file: mark orders shipped in Shop Manager.',
    });
    // A marketplace that takes one, while its file is not there (yet), gets no such note.
    expect(batchDownloadCell(order({ source: 'amazon' }))).toMatchObject({
      hasAutoConfirm: false,
      noTrackingFile: null,
    });
  });
});
