import { createServer } from 'node:net';
import { expect, test } from 'vitest';
import { ephemeralPortRange, freePort } from '../src/free-port';

test('a free port for a listener is outside the range outgoing connections take their ports from, and binds', async () => {
  const [low, high] = ephemeralPortRange();
  expect(low).toBeLessThanOrEqual(high);
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) expect(port < low || port > high, `${port} in ${low}-${high}`).toBe(true);
  const srv = createServer();
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(ports[0], '127.0.0.1', resolve);
  });
  await new Promise((r) => srv.close(r));
});
