import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Whether a TCP port can be bound on the host right now. */
function canBind(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** The kernel's range of ports it hands out for outgoing connections and `listen(0)` (Linux; the usual default). */
export function ephemeralPortRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && (low as number) <= (high as number))
      return [low as number, high as number];
  } catch {}
  return [32768, 60999];
}

/**
 * A free port for a listener the caller binds soon after, chosen at random outside the kernel's ephemeral range:
 * a port from `listen(0)` comes from that range, where every outgoing connection on the machine also takes its
 * local port, so between the choice and the bind another program's connection could take it. Outside the range
 * only another listener can, and the choice is checked free first.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [low, high] = ephemeralPortRange();
  // The larger span outside the range: below it (down to 10000) or above it.
  const below: [number, number] = [10_000, low - 1];
  const above: [number, number] = [high + 1, 65_535];
  const [from, to] = below[1] - below[0] >= above[1] - above[0] ? below : above;
  if (to - from >= 100) {
    for (let i = 0; i < 50; i++) {
      const port = from + Math.floor(Math.random() * (to - from + 1));
      if (await canBind(port, host)) return port;
    }
  }
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
