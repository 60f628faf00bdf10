import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createRenderPool, createSandboxCarrier, type LabelRequest, type SandboxCarrier } from '../src/index';

const scratch = mkdtempSync(join(tmpdir(), 'carriers-pool-'));
let written = 0;

function pdfText(pdf: Buffer): string {
  const path = join(scratch, `${written++}.pdf`);
  writeFileSync(path, pdf);
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
}

function request(key: string, recipient = 'Jane Doe'): LabelRequest {
  return {
    idempotencyKey: key,
    serviceUid: 'usps_ground_advantage',
    from: { name: 'Acme Widgets', street1: '123 Main St', city: 'New York', state: 'NY', zip: '10001', country: 'US' },
    to: { name: recipient, street1: '456 Oak Avenue', city: 'Los Angeles', state: 'CA', zip: '90001', country: 'US' },
    parcel: { length: 10, width: 8, height: 4, weightLb: 3.5 },
    references: { orderId: key },
    shipDate: new Date('2025-03-04T12:00:00Z'),
  };
}

async function purchase(carrier: SandboxCarrier, req: LabelRequest) {
  const result = await carrier.purchaseLabel(req);
  if (!result.ok) throw new Error(result.message);
  return result;
}

// Every pool a test opens is closed, so a thread left running would keep vitest from exiting.
const carriers: SandboxCarrier[] = [];
function carrier(opts: Parameters<typeof createSandboxCarrier>[0]): SandboxCarrier {
  const created = createSandboxCarrier(opts);
  carriers.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(carriers.splice(0).map((c) => c.close()));
});

// Each thread compiles the TypeScript sources and loads pdfmake as it starts, which takes seconds on a busy machine.
describe('label rendering on worker threads', { timeout: 30_000 }, () => {
  it('renders many labels at once, each PDF carrying its own tracking number', async () => {
    const pooled = carrier({ renderThreads: 2 });
    const keys = Array.from({ length: 12 }, (_, i) => `pool-${i}`);
    const results = await Promise.all(keys.map((key) => purchase(pooled, request(key))));
    expect(new Set(results.map((r) => r.trackingNumber)).size).toBe(keys.length);
    results.forEach((result, i) => {
      const text = pdfText(result.pdf).replace(/\s+/g, '');
      expect(text).toContain(result.trackingNumber);
      expect(text).toContain(`Order:${keys[i]}`);
    });
  });

  it('prints the same label text with two threads as inline', async () => {
    const inline = carrier({ renderThreads: 0 });
    const pooled = carrier({ renderThreads: 2 });
    for (const key of ['same-1', 'same-2', 'same-3']) {
      const [a, b] = await Promise.all([purchase(inline, request(key)), purchase(pooled, request(key))]);
      expect(b.trackingNumber).toBe(a.trackingNumber);
      expect(b.pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfText(b.pdf)).toBe(pdfText(a.pdf));
    }
  });

  it('starts its threads with the first label, not when the pool is made', async () => {
    // A thread takes its environment when it is made: threads made with the pool would note their start in
    // `atCreation`, threads made for the first label in `atFirstLabel`.
    const atCreation = join(scratch, 'thread-starts-at-creation.log');
    const atFirstLabel = join(scratch, 'thread-starts-at-first-label.log');
    process.env.RENDER_THREAD_LOG = atCreation;
    // Files that follow in this worker share its process environment.
    onTestFinished(() => {
      delete process.env.RENDER_THREAD_LOG;
    });
    const pool = createRenderPool({
      size: 2,
      workerUrl: new URL('./fixtures/counting-render-worker.ts', import.meta.url),
    });
    const lazy = carrier({ renderer: pool });
    process.env.RENDER_THREAD_LOG = atFirstLabel;

    // The label is rendered by one of the threads, which noted its start before it could take any work.
    const result = await purchase(lazy, request('lazy-1'));
    expect(pdfText(result.pdf).replace(/\s+/g, '')).toContain(result.trackingNumber);
    const started = () => (existsSync(atFirstLabel) ? readFileSync(atFirstLabel, 'utf8').trim().split('\n') : []);
    const settled = () => started().length >= 2 || existsSync(atCreation);
    for (const deadline = Date.now() + 20_000; !settled() && Date.now() < deadline; )
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(atCreation)).toBe(false);
    expect(started()).toHaveLength(2);
  });

  it('reports a render thread crash as a retryable failure and keeps rendering on a new thread', async () => {
    const pool = createRenderPool({
      size: 1,
      workerUrl: new URL('./fixtures/crashing-render-worker.ts', import.meta.url),
    });
    const crashing = carrier({ renderer: pool });
    const [crashed, other] = await Promise.all([
      crashing.purchaseLabel(request('crash-1', 'CRASH-THREAD')),
      crashing.purchaseLabel(request('after-crash')),
    ]);
    expect(crashed).toEqual({
      ok: false,
      retryable: true,
      message: 'Label purchase failed: the label could not be generated. Please try again.',
      code: 'LABEL_RENDER_FAILED',
    });
    if (!other.ok) throw new Error(other.message);
    expect(pdfText(other.pdf).replace(/\s+/g, '')).toContain(other.trackingNumber);
  });

  it('refuses work once closed and leaves no thread behind', async () => {
    const pooled = createSandboxCarrier({ renderThreads: 2 });
    await purchase(pooled, request('before-close'));
    await pooled.close();
    await expect(pooled.purchaseLabel(request('after-close'))).rejects.toThrow(/closed/);
  });

  it('rejects a negative or fractional thread count', () => {
    expect(() => createSandboxCarrier({ renderThreads: -1 })).toThrow(/renderThreads/);
    expect(() => createSandboxCarrier({ renderThreads: 1.5 })).toThrow(/renderThreads/);
  });
});
