// The fake EasyPost of the real-postage benchmark in a process of its own, as a carrier is a system of its own: its
// event loop reads each request when it comes, whatever the benchmark's process is doing, so the arrival times it
// counts its limit by are its own. Started by run.ts with an IPC channel; answers `{ stats: n }` with the arrival
// times of the buys from the n-th request on and the 429s so far, and `{ close: true }` by closing.
//
//   fork('fake-process.ts', ['--latency', '300', '--limit', '50'], { execArgv: ['--import', 'tsx'] })
import { parseArgs } from 'node:util';
import { createRenderPool } from '@flatship/carriers';
import { startFakeEasyPost } from '@flatship/carriers/testing';

const { values } = parseArgs({ options: { latency: { type: 'string' }, limit: { type: 'string' } } });
const send = (message: unknown) => process.send?.(message);

/** The fake's side of the channel. */
export type FakeProcessReply =
  | { ready: { url: string; testKey: string } }
  | {
      stats: {
        requests: number;
        buyArrivals: number[];
        buyShipments: string[];
        /** When the first shipment of these requests was asked to be created. */
        firstCreateAt: number | null;
        throttled: number;
      };
    }
  | { closed: true };

// Its labels are drawn on a thread of their own as well.
const renderer = createRenderPool({ size: 1 });
const fake = await startFakeEasyPost({
  latencyMs: Number(values.latency),
  buysPerSecond: Number(values.limit),
  retryAfterSeconds: 1,
  renderer,
});
process.on('message', async (m: { stats?: number; close?: true }) => {
  if (m.stats !== undefined) {
    const seen = fake.requests.slice(m.stats);
    const buys = seen.filter((r) => r.method === 'POST' && r.path.endsWith('/buy'));
    send({
      stats: {
        requests: fake.requests.length,
        buyArrivals: buys.map((r) => r.at),
        buyShipments: buys.map((r) => r.path),
        // The log is in arrival order: the first create found is the first that came.
        firstCreateAt: seen.find((r) => r.method === 'POST' && r.path.endsWith('/shipments'))?.at ?? null,
        throttled: fake.throttled,
      },
    } satisfies FakeProcessReply);
  }
  if (m.close) {
    await fake.close();
    await renderer.close();
    send({ closed: true } satisfies FakeProcessReply);
    process.disconnect?.();
  }
});
// The benchmark gone, nothing is left to answer.
process.on('disconnect', () => process.exit(0));
send({ ready: { url: fake.url, testKey: fake.testKey } } satisfies FakeProcessReply);
