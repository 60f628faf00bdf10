import { createCarrierSet, createSandboxCarrier } from '@flatship/carriers';
import type { Subscription } from '@flatship/kit/bus';
import type { CarrierPort, FileStore, LedgerPort } from '@flatship/orders/worker';
import { type Stack, startStack } from '../../orders/test/stack';
import { createWorkerDeps } from '../src/deps';
import type { ProgressThrottle } from '../src/progress-throttle';
import { startLabelWorker } from '../src/worker';

export interface WorkerStack extends Stack {
  progress: ProgressThrottle;
  /** Starts consuming label.requested (the outbox relay runs from the start). */
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  workerDeps: ReturnType<typeof createWorkerDeps>;
}

const silent = { info() {}, warn() {}, error() {}, debug() {} };

/**
 * The orders test stack (real pricing and payments, test database, temp
 * FILES_DIR) with the outbox relayed to the postgres bus and the label worker
 * consuming from it in this process.
 */
export async function startWorkerStack(
  opts: {
    carrier?: CarrierPort;
    /** A `CARRIERS` value for pricing, orders and the worker alike, instead of the sandbox alone. */
    carriers?: string;
    /** Wraps the ledger client orders and the worker use (e.g. to cut a submit off mid-way). */
    ledger?: (real: LedgerPort) => LedgerPort;
    progressIntervalMs?: number;
    startWorker?: boolean;
    batchSize?: number;
    /** A cluster of the test's own instead of the run's PostgreSQL. */
    adminUrl?: string;
    /** Wraps the file store orders and the worker write through (e.g. to count writes, or fail one). */
    files?: (real: FileStore) => FileStore;
  } = {},
): Promise<WorkerStack> {
  const s = await startStack({
    ...(opts.files ? { files: opts.files } : {}),
    ...(opts.ledger ? { ledger: opts.ledger } : {}),
    ...(opts.adminUrl ? { adminUrl: opts.adminUrl } : {}),
    ...(opts.carriers ? { carriers: opts.carriers } : {}),
  });
  const carrierSet = opts.carriers && !opts.carrier ? createCarrierSet(opts.carriers) : null;
  const stopRelay = await s.outbox.startRelay();
  const workerDeps = createWorkerDeps({
    db: s.db,
    bus: s.bus,
    outbox: s.outbox,
    ledger: s.domain.ledger,
    carrier: opts.carrier ?? carrierSet ?? createSandboxCarrier(),
    files: s.domain.files,
    logger: silent,
    progressIntervalMs: opts.progressIntervalMs ?? 250,
    carrierRetryDelaysMs: [1],
  });
  let sub: Subscription | null = null;
  const ws: WorkerStack = {
    ...s,
    progress: workerDeps.progress,
    workerDeps,
    async startWorker() {
      sub ??= await startLabelWorker(s.bus, workerDeps, { concurrency: 4, batchSize: opts.batchSize ?? 25 });
    },
    async stopWorker() {
      await sub?.close();
      sub = null;
    },
    async close() {
      await ws.stopWorker();
      await workerDeps.progress.flush();
      await stopRelay();
      await carrierSet?.close();
      await s.close();
    },
  };
  if (opts.startWorker !== false) await ws.startWorker();
  return ws;
}

/** Waits until the order reaches one of `statuses` (default: any terminal one). */
export async function waitForStatus(
  s: Stack,
  orderId: string,
  statuses = ['completed', 'completed_with_errors', 'failed'],
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const order = await s.db('bulk_orders').where({ id: orderId }).first();
    if (order && statuses.includes(order.status)) return order;
    if (Date.now() > deadline) throw new Error(`order ${orderId} still ${order?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A small RFC 4180 reader for the files under test (quoted fields, doubled quotes). */
export function parseDelimited(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
