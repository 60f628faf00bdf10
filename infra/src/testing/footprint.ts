// The embedded stack's memory, read from /proc (Linux): each process's RSS, PSS and anonymous memory from
// /proc/<pid>/smaps_rollup, PostgreSQL as the sum over the postmaster and all its children (its backends share their
// buffers, which PSS counts once over all of them). The pids come from DATA_DIR/run.json. Used by
// `make bench-footprint` and by the footprint check of `make test` (infra/test/stack.test.ts).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** kB. */
export interface Mem {
  rss: number;
  pss: number;
  anon: number;
}

export const POSTGRES_TREE = 'postgres (all)';

/** What the whole idle stack should take, every process's PSS summed (MB). */
export const FOOTPRINT_TARGET_MB = 400;
/** Where `make test` fails: the target and a 20 % margin. Memory does not depend on the machine's pace. */
export const FOOTPRINT_LIMIT_MB = FOOTPRINT_TARGET_MB * 1.2;

/** What /proc says of one process; zeros once it is gone. */
export function processMemory(pid: number): Mem {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
    return { rss: kb('Rss'), pss: kb('Pss'), anon: kb('Anonymous') };
  } catch {
    return { rss: 0, pss: 0, anon: 0 };
  }
}

/** A process's direct children. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

interface RunFile {
  launcherPid: number;
  postgres: { pid: number | null };
  services: Record<string, { pid: number | null }>;
}

export interface StackMemory {
  /** By process: `launcher`, each service by name, and `POSTGRES_TREE`. */
  mem: Record<string, Mem>;
  /** The pids read: the Node processes by name, and PostgreSQL's postmaster and children. */
  pids: { node: Record<string, number>; postgres: number[] };
  /** PostgreSQL's children: a backend per connection and its own helper processes. */
  backends: number;
  /** The sum of every process's PSS, kB. */
  pssKb: number;
}

/** The memory of every process of the stack running from `dataDir`. */
export async function stackMemory(dataDir: string): Promise<StackMemory> {
  const run = JSON.parse(await readFile(join(dataDir, 'run.json'), 'utf8')) as RunFile;
  const node: Record<string, number> = { launcher: run.launcherPid };
  for (const [name, s] of Object.entries(run.services)) if (s.pid) node[name] = s.pid;
  const mem: Record<string, Mem> = {};
  for (const [name, pid] of Object.entries(node)) mem[name] = processMemory(pid);
  const postgres = run.postgres.pid ? [run.postgres.pid, ...childPids(run.postgres.pid)] : [];
  const pg: Mem = { rss: 0, pss: 0, anon: 0 };
  for (const pid of postgres) {
    const m = processMemory(pid);
    pg.rss += m.rss;
    pg.pss += m.pss;
    pg.anon += m.anon;
  }
  mem[POSTGRES_TREE] = pg;
  const pssKb = Object.values(mem).reduce((sum, m) => sum + m.pss, 0);
  return { mem, pids: { node, postgres }, backends: Math.max(0, postgres.length - 1), pssKb };
}

/** One line per process, PSS in MB, for a failure message or a log. */
export const describeMemory = (m: StackMemory): string =>
  [
    ...Object.entries(m.mem).map(([name, mem]) => `${name.padEnd(18)} ${(mem.pss / 1024).toFixed(0).padStart(5)} MB`),
    `${'all PSS'.padEnd(18)} ${(m.pssKb / 1024).toFixed(0).padStart(5)} MB (PostgreSQL backends: ${m.backends})`,
  ].join('\n');
