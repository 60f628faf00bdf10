import type { BulkStatus } from '@flatship/proto';
import { labelFileKey } from '../files';
import type { FileStore } from '../ports';
import { autoConfirmTsv, bulkFileKey, displayNames, mergeLabelPdfs, resultsCsv } from './bulk-files';
import { progressOf } from './bulk-view';
import type { BulkDeps } from './deps';
import type { BulkOrderRecord } from './ports';

export const finalStatusOf = (o: Pick<BulkOrderRecord, 'processedCount' | 'failedCount'>): BulkStatus =>
  o.failedCount === 0 ? 'completed' : o.processedCount === 0 ? 'failed' : 'completed_with_errors';

/**
 * Writes an order's files once every row is settled — the labels merged into
 * one PDF in row order, the results CSV, and for Amazon orders the
 * shipping-confirmation TSV — then sets the final status and records the final
 * `bulk.progress` with the file names. Safe to run twice: the files are
 * rewritten whole, and only one run moves the status.
 */
export async function finishBulkOrder(deps: BulkDeps, orderId: string): Promise<BulkOrderRecord | null> {
  const order = await deps.bulk.findById(orderId);
  if (order?.status !== 'generating_files') return order;
  const rows = await deps.bulk.rows(orderId);
  const names = displayNames(order.createdAt);
  const done = rows.filter((r) => r.status === 'completed' && r.pdfName);

  let pdfName: string | null = null;
  if (done.length > 0) {
    const pdfs: Buffer[] = new Array(done.length);
    // A few reads at a time: the files are small and many, so waiting on each in turn would dominate.
    let next = 0;
    const reader = async () => {
      for (let i = next++; i < done.length; i = next++) {
        const r = done[i] as (typeof done)[number];
        const pdf = await deps.files.read(labelFileKey(r.userId, r.pdfName as string));
        if (!pdf) throw new Error(`label file of row ${r.rowIndex} of order ${orderId} is missing`);
        pdfs[i] = pdf;
      }
    };
    await Promise.all(Array.from({ length: Math.min(16, done.length) }, reader));
    await deps.files.put(bulkFileKey(order.userId, orderId, 'labels.pdf'), await mergeLabelPdfs(pdfs));
    pdfName = names.pdf;
  }
  await deps.files.put(bulkFileKey(order.userId, orderId, 'results.csv'), resultsCsv(rows));
  let autoConfirmName: string | null = null;
  if (order.source === 'amazon' && done.length > 0) {
    await deps.files.put(bulkFileKey(order.userId, orderId, 'auto-confirm.tsv'), autoConfirmTsv(rows));
    autoConfirmName = names.autoConfirm;
  }

  const moved: { final?: BulkOrderRecord } = {};
  const result = await deps.transactor.run(async (tx) => {
    await deps.bulk.lock(orderId, tx);
    const counted = await deps.bulk.reconcileCounts(orderId, tx);
    if (counted.processedCount + counted.failedCount !== counted.totalCount) return counted;
    const final = await deps.bulk.transition(
      orderId,
      ['generating_files'],
      finalStatusOf(counted),
      { pdfName, resultCsvName: names.resultCsv, autoConfirmName },
      tx,
    );
    if (final) await deps.events.progress(tx, progressOf(final));
    moved.final = final ?? undefined;
    return final ?? counted;
  });
  if (moved.final) deps.onOrderFinished?.(moved.final);
  return result;
}

/** Whether the files an order's names promise are all in the store (fix regenerates them when not). */
export async function hasAllFiles(files: FileStore, order: BulkOrderRecord): Promise<boolean> {
  const expected: ['labels.pdf' | 'results.csv' | 'auto-confirm.tsv', string | null][] = [
    ['labels.pdf', order.pdfName],
    ['results.csv', order.resultCsvName],
    ['auto-confirm.tsv', order.autoConfirmName],
  ];
  for (const [file, name] of expected) {
    if (!name) continue;
    const opened = await files.open(bulkFileKey(order.userId, order.id, file));
    if (!opened) return false;
    (opened.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  }
  return order.resultCsvName !== null;
}
