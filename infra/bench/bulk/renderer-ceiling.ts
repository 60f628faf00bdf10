// Child process of run.ts: how many sandbox labels one process renders per second.
// Run alone it prints one JSON line: {"labels": n, "seconds": s, "perSecond": r}.
import { createSandboxCarrier } from '@flatship/carriers';
import { amazonRows } from './rows';

const seconds = Number(process.argv[2] ?? 3);
const carrier = createSandboxCarrier();
const rows = amazonRows(500, 7);

async function buy(i: number) {
  const row = rows[i % rows.length]!;
  const r = row.receiver;
  const s = row.sender;
  const result = await carrier.purchaseLabel({
    // A fresh key each time, as every row of an order has its own label id.
    idempotencyKey: `ceiling-${i}`,
    serviceUid: i % 2 === 0 ? 'usps_ground_advantage' : 'usps_priority_mail',
    from: {
      name: String(s.sender_name),
      company: String(s.sender_company),
      street1: String(s.sender_address1),
      city: String(s.sender_city),
      state: String(s.sender_state_province),
      zip: String(s.sender_zip_postal),
      country: 'US',
    },
    to: {
      name: String(r.receiver_name),
      street1: String(r.receiver_address1),
      city: String(r.receiver_city),
      state: String(r.receiver_state_province),
      zip: String(r.receiver_zip_postal),
      country: 'US',
    },
    parcel: { length: 10, width: 8, height: 4, weightLb: Number(row.package.package_weight) },
    references: { quantity: String(row.package.quantity), sku: String(row.package.sku_number) },
  });
  if (!result.ok) throw new Error(`sandbox refused a label: ${result.message}`);
}

// Warm up first: the first labels pay for loading fonts and compiling the renderer.
const warmUntil = performance.now() + 700;
let i = 0;
while (performance.now() < warmUntil) await buy(i++);

const start = performance.now();
const end = start + seconds * 1000;
let labels = 0;
while (performance.now() < end) {
  await buy(i++);
  labels++;
}
const elapsed = (performance.now() - start) / 1000;
process.stdout.write(`${JSON.stringify({ labels, seconds: elapsed, perSecond: labels / elapsed })}\n`);
