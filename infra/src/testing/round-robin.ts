import { createServer, request } from 'node:http';
import { connect } from 'node:net';

export interface RoundRobinFront {
  url: string;
  /** How many requests (and websocket upgrades) went to each target port. */
  counts: Map<number, number>;
  close(): Promise<void>;
}

/**
 * A minimal load balancer on loopback, as a Service in front of the gateway's
 * replicas would be: each HTTP request and each websocket upgrade goes to the
 * next target in turn. `targets` is read per request, so a replica restarted
 * on another port is followed; a target that refuses the connection is skipped
 * (a replica going away), as a load balancer's health checks would do.
 */
export async function startRoundRobin(targets: () => number[]): Promise<RoundRobinFront> {
  let next = 0;
  const counts = new Map<number, number>();
  const pick = (): number[] => {
    const list = targets();
    const start = next++ % list.length;
    return [...list.slice(start), ...list.slice(0, start)];
  };
  const count = (port: number) => counts.set(port, (counts.get(port) ?? 0) + 1);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (ports: number[]) => {
        const [port, ...rest] = ports;
        if (port === undefined) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ code: 'BAD_GATEWAY', message: 'no gateway replica accepted the connection' }));
          return;
        }
        const upstream = request(
          { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            count(port);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', (e: NodeJS.ErrnoException) => {
          if (e.code === 'ECONNREFUSED' && !res.headersSent) attempt(rest);
          else res.destroy(e);
        });
        upstream.end(body);
      };
      attempt(pick());
    });
  });

  server.on('upgrade', (req, socket, head) => {
    const attempt = (ports: number[]) => {
      const [port, ...rest] = ports;
      if (port === undefined) return socket.destroy();
      const upstream = connect(port, '127.0.0.1', () => {
        count(port);
        const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'ECONNREFUSED') attempt(rest);
        else socket.destroy();
      });
      socket.on('error', () => upstream.destroy());
    };
    attempt(pick());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
