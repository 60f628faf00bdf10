import { createServer } from 'node:net';

/** Whether a TCP port can be bound on the host right now. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** A port the OS considers free; the caller binds it soon after, so collisions are unlikely but possible. */
export function freePort(host = '127.0.0.1'): Promise<number> {
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

export async function preferredOrFreePort(preferred: number | undefined, host = '127.0.0.1'): Promise<number> {
  if (preferred && (await isPortFree(preferred, host))) return preferred;
  return freePort(host);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM means it exists but belongs to someone else (e.g. PostgreSQL's own user).
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
