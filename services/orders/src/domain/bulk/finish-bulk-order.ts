import type { BulkStatus } from '@flatship/proto';
import { labelFileKey } from '../files';
import type { FileStore } from '../ports';
import {
  type BulkStoredFile,
  bulkFileKey,
  confirmationFile,
  confirmationFileOf,
  displayNames,
  mergeLabelPdfs,
  resultsCsv,
} from './bulk-files';
import { progressOf } from './bulk-view';
import type { BulkDeps } from './deps';
import type { BulkOrderRecord, BulkRowRecord, OrderFiles } from './ports';

type Counts = Pick<BulkOrderRecord, 'processedCount' | 'failedCount' | 'refundedCount' | 'totalCount'>;

/**
 * Whether every row of the order has settled: bought, failed, or bought and then refunded by an admin
 * (void). A row still pending is in none of the three counts.
 */
export const isSettled = (o: Counts): boolean => o.processedCount + o.failedCount + o.refundedCount === o.totalCount;

/**
 * The status a settled order ends in. A refunded row was bought before an admin refunded it, so it is no
 * failure: an order with nothing failed is completed, and one is failed only when no label was ever bought
 * for it. So an order with failures and refunds stays completed_with_errors, whose failed rows may be retried.
 */
export const finalStatusOf = (o: Omit<Counts, 'totalCount'>): BulkStatus =>
  o.failedCount === 0 ? 'completed' : o.processedCount + o.refundedCount === 0 ? 'failed' : 'completed_with_errors';

async function readLabelPdfs(deps: BulkDeps, orderId: string, done: BulkRowRecord[]): Promise<Buffer[]> {
  const pdfs: Buffer[] = new Array(done.length);
  // A few reads at a time: the files are small and many, so waiting on each in turn would dominate.
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < done.length; i = next++) {
      const r = done[i] as BulkRowRecord;
      const pdf = await deps.files.read(labelFileKey(r.userId, r.pdfName as string));
      if (!pdf) throw new Error(`label file of row ${r.rowIndex} of order ${orderId} is missing`);
      pdfs[i] = pdf;
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, done.length) }, reader));
  return pdfs;
}

/**
 * Writes every file of a settled order from its rows as they are now: the valid labels (bought, not
 * refunded) merged in row order, the results CSV, and the confirmation file the order's marketplace makes (Amazon's
 * shipping confirmation TSV), when it takes one. A file
 * the rows no longer call for (every label refunded) is removed, so an earlier version cannot be served.
 */
async function writeOrderFiles(deps: BulkDeps, order: BulkOrderRecord, rows: BulkRowRecord[]): Promise<OrderFiles> {
  const names = displayNames(order.createdAt, order.source);
  const key = (file: BulkStoredFile) => bulkFileKey(order.userId, order.id, file);
  const done = rows.filter((r) => r.status === 'completed' && r.pdfName);

  let pdfName: string | null = null;
  if (done.length > 0) {
    await deps.files.put(key('labels.pdf'), await mergeLabelPdfs(await readLabelPdfs(deps, order.id, done)));
    pdfName = names.pdf;
  } else {
    await deps.files.remove(key('labels.pdf'));
  }
  await deps.files.put(key('results.csv'), await resultsCsv(rows));
  let autoConfirmName: string | null = null;
  const confirmation = done.length > 0 ? await confirmationFile(order.source, rows) : null;
  if (confirmation) {
    await deps.files.put(key(confirmationFileOf(order.source)), confirmation);
    autoConfirmName = names.autoConfirm;
  } else {
    await deps.files.remove(key(confirmationFileOf(order.source)));
  }
  return { pdfName, resultCsvName: names.resultCsv, autoConfirmName };
}

/**
 * Writes an order's files once every row is settled, then sets the final status and records the final
 * `bulk.progress` with the file names. The whole of it runs under the order's row lock, which every change
 * of the order's rows takes first (the worker settling rows, an admin refunding one, a retry): the files
 * are always those of the rows the final status is set for, and two runs at once (the worker, the sweeper,
 * a Force Recovery clicked twice) generate once — the second finds the order finished and leaves it.
 * `isRegeneration`: the order had finished before (its files are rewritten after a refund), so its
 * duration is not measured again.
 */
export async function finishBulkOrder(
  deps: BulkDeps,
  orderId: string,
  opts: { isRegeneration?: boolean } = {},
): Promise<BulkOrderRecord | null> {
  const moved: { final?: BulkOrderRecord } = {};
  const result = await deps.transactor.run(async (tx) => {
    const order = await deps.bulk.lock(orderId, tx);
    if (order?.status !== 'generating_files') return order;
    const counted = await deps.bulk.reconcileCounts(orderId, tx);
    if (!isSettled(counted)) return counted;
    const files = await writeOrderFiles(deps, counted, await deps.bulk.rows(orderId, tx));
    const final = await deps.bulk.transition(orderId, ['generating_files'], finalStatusOf(counted), files, tx);
    if (final) await deps.events.progress(tx, progressOf(final));
    moved.final = final ?? undefined;
    return final ?? counted;
  });
  if (moved.final && !opts.isRegeneration) deps.onOrderFinished?.(moved.final);
  return result;
}

/** Whether the files an order's names promise are all in the store (fix regenerates them when not). */
export async function hasAllFiles(files: FileStore, order: BulkOrderRecord): Promise<boolean> {
  const expected: [BulkStoredFile, string | null][] = [
    ['labels.pdf', order.pdfName],
    ['results.csv', order.resultCsvName],
    [confirmationFileOf(order.source), order.autoConfirmName],
  ];
  for (const [file, name] of expected) {
    if (!name) continue;
    const opened = await files.open(bulkFileKey(order.userId, order.id, file));
    if (!opened) return false;
    (opened.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  }
  return order.resultCsvName !== null;
}
