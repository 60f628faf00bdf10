import { parseArgs } from 'node:util';
import { createSandboxCarrier, mergePdfs, mergeWithPdfLib } from '@flatship/carriers';
import { median } from '../stats';

// How long merging bulk label PDFs takes: the fast path against pdf-lib on the same labels, in the same run.
const { values } = parseArgs({
  options: { labels: { type: 'string', default: '1000' }, runs: { type: 'string', default: '5' } },
});
const count = Number(values.labels);
const runs = Number(values.runs);
if (!(Number.isInteger(count) && count > 0 && Number.isInteger(runs) && runs > 0)) {
  console.error('usage: run.ts [--labels N] [--runs N]');
  process.exit(2);
}

const carrier = createSandboxCarrier({ renderThreads: 0 });
const pdfs: Buffer[] = [];
for (let i = 0; i < count; i++) {
  const result = await carrier.purchaseLabel({
    idempotencyKey: `merge-bench-${i}`,
    serviceUid: i % 2 ? 'usps_priority_mail' : 'usps_ground_advantage',
    from: { name: 'Acme Goods', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
    to: { name: `Receiver ${i}`, street1: `${i} Elm St`, city: 'Boston', state: 'MA', zip: '02101', country: 'US' },
    parcel: { weightLb: 1 + (i % 5), length: 10, width: 6, height: 4 },
  });
  if (!result.ok) throw new Error(result.message);
  pdfs.push(result.pdf);
}
await carrier.close();

const time = async (merge: (p: Buffer[]) => Promise<Buffer>) => {
  const t = performance.now();
  const out = await merge(pdfs);
  return { ms: performance.now() - t, bytes: out.length };
};

const fast: number[] = [];
const general: number[] = [];
let sizes = { fast: 0, general: 0 };
for (let r = 0; r < runs; r++) {
  // Alternated, so neither always runs on a warmer or busier process.
  const a = await time(mergePdfs);
  const b = await time(mergeWithPdfLib);
  fast.push(a.ms);
  general.push(b.ms);
  sizes = { fast: a.bytes, general: b.bytes };
}
console.log(`merging ${count} label PDFs, ${runs} runs`);
console.log(`fast path: median ${median(fast).toFixed(1)} ms, ${(sizes.fast / 1e6).toFixed(2)} MB`);
console.log(`pdf-lib:   median ${median(general).toFixed(1)} ms, ${(sizes.general / 1e6).toFixed(2)} MB`);
console.log(`pdf-lib / fast path: ${(median(general) / median(fast)).toFixed(1)}×`);
