import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildRunnables } from '../build/build.mjs';
import { isProcessAlive, sleep } from '../src/net';
import { REPO_ROOT } from '../src/paths';

export interface RunFile {
  launcherPid: number;
  postgres: { pid: number; port: number };
  services: Record<string, { pid: number | null; port: number }>;
}

export const readRunFile = async (dataDir: string): Promise<RunFile> =>
  JSON.parse(await readFile(join(dataDir, 'run.json'), 'utf8')) as RunFile;

export async function readyzStatus(url: string): Promise<number> {
  try {
    return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return 0;
  }
}

export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
}

/** Every pid the launcher ran: itself, PostgreSQL and each service. */
export function allPids(run: RunFile): number[] {
  const services = Object.values(run.services).flatMap((s) => (s.pid ? [s.pid] : []));
  return [run.launcherPid, run.postgres.pid, ...services];
}

export const alivePids = (pids: number[]) => pids.filter((pid) => isProcessAlive(pid) && !isZombie(pid));

/** A killed child the test runner has not reaped yet is gone for every practical purpose. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** A two-service stand-in for the product (see fixtures/stack/README.md). */
export const FIXTURE_ROOT = join(REPO_ROOT, 'infra', 'test', 'fixtures', 'stack');

/** Builds the stand-in's services to dist/main.js as the product's are, since the launcher runs only built code. */
export async function buildFixtureStack(): Promise<void> {
  const dir = 'infra/test/fixtures/stack';
  await buildRunnables({
    onlyStale: true,
    entries: [
      { name: 'fixture-gateway', source: `${dir}/gateway/src/main.ts`, out: `${dir}/gateway/dist/main.js` },
      { name: 'fixture-auth', source: `${dir}/services/auth/src/main.ts`, out: `${dir}/services/auth/dist/main.js` },
    ],
  });
}
