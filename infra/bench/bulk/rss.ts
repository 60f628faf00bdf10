import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The processes of a running stack, as the launcher lists them in DATA_DIR/run.json. */
export interface StackProcesses {
  /** name → pid: the launcher and each service. */
  nodes: Record<string, number>;
  /** The postmaster; its backends are counted with it. */
  postgres: number;
}

interface RunFile {
  launcherPid: number;
  postgres: { pid: number };
  services: Record<string, { pid: number | null }>;
}

export async function readStackProcesses(dataDir: string): Promise<StackProcesses> {
  const run = JSON.parse(await readFile(join(dataDir, 'run.json'), 'utf8')) as RunFile;
  const nodes: Record<string, number> = { launcher: run.launcherPid };
  for (const [name, s] of Object.entries(run.services)) if (s.pid) nodes[name] = s.pid;
  return { nodes, postgres: run.postgres.pid };
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The pids of a process's live children. */
export function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * PostgreSQL is one postmaster plus a backend per connection, all mapping the
 * same shared buffers: summing their RSS would count those buffers once per
 * backend, so the tree is measured by proportional set size instead.
 */
function postgresTreePssKb(postmaster: number): number {
  let total = 0;
  for (const pid of [postmaster, ...children(postmaster)]) {
    try {
      const m = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
      total += m ? Number(m[1]) : 0;
    } catch {
      // A backend that exited between listing and reading.
    }
  }
  return total;
}

/** PostgreSQL is reported as one entry: the postmaster and every backend. */
export const POSTGRES = 'postgres (all backends)';
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process (with its reaped children's when `withChildren`). */
export function cpuSeconds(pid: number, withChildren = false): number {
  try {
    // Fields after the command name, which may itself contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(f[11]) + Number(f[12]);
    return (withChildren ? own + Number(f[13]) + Number(f[14]) : own) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds per process now; postgres counts every backend, live or exited. */
export function cpuTotals(procs: StackProcesses): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const [name, pid] of Object.entries(procs.nodes)) totals[name] = cpuSeconds(pid);
  totals[POSTGRES] = [procs.postgres, ...children(procs.postgres)].reduce(
    (sum, pid) => sum + cpuSeconds(pid, pid === procs.postgres),
    0,
  );
  return totals;
}

export interface RssSampler {
  /** Peak resident memory (MB) per process since the sampler started. */
  stop(): Record<string, number>;
}

/** Polls every process's resident memory; a peak between two polls can be missed, hence the short interval. */
export function sampleRss(procs: StackProcesses, intervalMs = 100): RssSampler {
  const peakKb: Record<string, number> = {};
  const sample = () => {
    for (const [name, pid] of Object.entries(procs.nodes)) {
      peakKb[name] = Math.max(peakKb[name] ?? 0, statusKb(pid, 'VmRSS'));
    }
    peakKb[POSTGRES] = Math.max(peakKb[POSTGRES] ?? 0, postgresTreePssKb(procs.postgres));
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return Object.fromEntries(Object.entries(peakKb).map(([k, v]) => [k, v / 1024]));
    },
  };
}

/** The kernel's own high-water mark of each node process since it started (includes start-up). */
export function lifetimePeaksMb(procs: StackProcesses): Record<string, number> {
  return Object.fromEntries(Object.entries(procs.nodes).map(([name, pid]) => [name, statusKb(pid, 'VmHWM') / 1024]));
}
