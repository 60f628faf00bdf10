import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';

/** Whether a TCP port can be bound on the host right now. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

export { ephemeralPortRange, freePort } from '@flatship/kit';

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

/** Socket inodes of TCP listeners on `port`, read from the kernel's tables (Linux only). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT; state 0A is LISTEN; column 9 is the socket's inode.
      const local = cols[1];
      if (!local || cols[3] !== '0A') continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port && cols[9]) inodes.add(cols[9]);
    }
  }
  return inodes;
}

/**
 * Who listens on `port`, as "pid 123 (postgres -D /srv/pg)", or null when it
 * cannot be told (another OS, or a process of another user we may not inspect).
 */
export function portHolder(port: number): string | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return `pid ${pid} (${commandLine(pid)})`;
    }
  }
  return null;
}

function commandLine(pid: string): string {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').replace(/\s+/g, ' ');
    if (cmd) return cmd.length > 120 ? `${cmd.slice(0, 117)}...` : cmd;
  } catch {}
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return 'unknown program';
  }
}

/** "in use by pid 123 (nginx)" or "in use by another program". */
export const inUseBy = (port: number) => `in use by ${portHolder(port) ?? 'another program'}`;
