import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { LabelData } from './label-data';

export interface RenderRequest {
  id: number;
  data: LabelData;
}
export type RenderReply = { id: number; ok: true; pdf: ArrayBuffer } | { id: number; ok: false; message: string };

/** Turns label data into PDF bytes, on this thread or on others. */
export interface LabelRenderer {
  render(data: LabelData): Promise<Buffer>;
  /** Stops any threads; renders asked for afterwards are refused. */
  close(): Promise<void>;
}

/** The render thread died (crash, out of memory) while it held the label; rendering it again may well succeed. */
export class RenderThreadError extends Error {
  override name = 'RenderThreadError';
}

export interface RenderPoolOptions {
  /** Number of render threads; at least 1. */
  size?: number;
  /** Module run by each thread (TypeScript or JavaScript); replaceable so a failing thread can be exercised. */
  workerUrl?: URL;
}

/**
 * One render thread per core. The caller's own work (database, bus, HTTP) is
 * small beside rendering, so keeping a core back for it leaves that core idle
 * most of the time; the operating system shares the cores instead.
 */
export function defaultRenderThreads(): number {
  return Math.max(1, availableParallelism());
}

let renderModule: Promise<typeof import('./render-label')> | undefined;

/**
 * Renders one label on the calling thread. The renderer (pdfmake, its fonts, the barcode encoder) is loaded by the
 * first call, so a process that never renders a label, or renders them only on its render threads, never holds it.
 */
export async function renderLabel(data: LabelData): Promise<Buffer> {
  renderModule ??= import('./render-label');
  return (await renderModule).renderLabel(data);
}

export function createInlineRenderer(): LabelRenderer {
  return { render: renderLabel, close: async () => undefined };
}

/**
 * Run from the TypeScript sources (tsx, tests), a thread registers tsx through render-thread.mjs before loading the
 * worker; in a built bundle (`dist/main.js`) the worker is compiled next to the bundle as render-worker.js and runs
 * as the thread's entry itself.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const TS_THREAD_ENTRY = new URL('./render-thread.mjs', import.meta.url);
const DEFAULT_WORKER = new URL(FROM_SOURCE ? './render-worker.ts' : './render-worker.js', import.meta.url);

interface Job {
  id: number;
  data: LabelData;
  resolve: (pdf: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/**
 * A fixed set of worker threads rendering labels, so PDF layout (the costliest step of a purchase) runs on every
 * core instead of blocking the caller's event loop. The threads start on the first render. Jobs wait in one FIFO
 * queue; a thread that dies fails only the label it held and is replaced.
 */
export function createRenderPool(opts: RenderPoolOptions = {}): LabelRenderer {
  const size = opts.size ?? defaultRenderThreads();
  if (!Number.isInteger(size) || size < 1)
    throw new Error(`render pool size must be an integer of 1 or more, got ${size}`);
  const workerUrl = opts.workerUrl ?? DEFAULT_WORKER;
  const isTypeScript = workerUrl.pathname.endsWith('.ts');
  const queue: Job[] = [];
  const slots = new Set<Slot>();
  let nextId = 1;
  let closed = false;

  function spawn(): void {
    // The thread's own flags, not the parent's: the entry loads TypeScript itself, and some parent flags (test
    // runners, inspectors) are refused in workers.
    const worker = isTypeScript
      ? new Worker(TS_THREAD_ENTRY, { execArgv: [], workerData: { moduleUrl: workerUrl.href } })
      : new Worker(workerUrl, { execArgv: [] });
    const slot: Slot = { worker, job: null };
    slots.add(slot);
    slot.worker.on('message', (reply: RenderReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.job = null;
      if (reply.ok) job.resolve(Buffer.from(reply.pdf));
      else job.reject(new Error(reply.message));
      dispatch();
    });
    // 'error' is always followed by 'exit'; the job is settled there, once.
    let lastError: Error | undefined;
    slot.worker.on('error', (err: Error) => {
      lastError = err;
    });
    slot.worker.on('exit', (code) => {
      slots.delete(slot);
      const job = slot.job;
      slot.job = null;
      if (job) {
        const cause = lastError ? `: ${lastError.message}` : ` with code ${code}`;
        job.reject(new RenderThreadError(`label render thread stopped${cause}`));
      }
      if (!closed) {
        spawn();
        dispatch();
      }
    });
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.job) continue;
      const job = queue.shift() as Job;
      slot.job = job;
      slot.worker.postMessage({ id: job.id, data: job.data } satisfies RenderRequest);
    }
  }

  // The threads start with the first label, not with the pool: each one loads the renderer and its fonts (about
  // 20 MB), which a process that has nothing to render yet does not need to hold.
  let started = false;

  return {
    render(data) {
      if (closed) return Promise.reject(new Error('label render pool is closed'));
      if (!started) {
        started = true;
        for (let i = 0; i < size; i++) spawn();
      }
      return new Promise<Buffer>((resolve, reject) => {
        queue.push({ id: nextId++, data, resolve, reject });
        dispatch();
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('label render pool is closed'));
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
    },
  };
}
