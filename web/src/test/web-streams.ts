import * as webStreams from 'node:stream/web';

// Test files run in VM contexts (pool vmThreads), whose global object holds only what jsdom defines; Node's own
// web streams, which msw's interceptors use, are copied in.
const target = globalThis as Record<string, unknown>;
for (const [name, value] of Object.entries(webStreams)) {
  if (typeof value === 'function' && target[name] === undefined) target[name] = value;
}
