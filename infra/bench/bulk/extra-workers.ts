import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, sleep } from '../../src/net';
import { REPO_ROOT } from '../../src/paths';

/**
 * Extra label-worker replicas beside the launcher's one, configured the way
 * the launcher configures its own (same database, secrets, payments, files),
 * to measure what scaling the worker out gives. They join the same consumer
 * group, so the partitions of label.requested are shared between all of them.
 */
export async function startExtraWorkers(
  dataDir: string,
  count: number,
  env: Record<string, string>,
): Promise<{ pids: Record<string, number>; stop(): Promise<void> }> {
  if (count === 0) return { pids: {}, stop: async () => {} };
  const secrets = JSON.parse(await readFile(join(dataDir, 'secrets.json'), 'utf8')) as {
    jwtPublicKey: string;
    internalSecret: string;
    pgPassword: string;
  };
  const run = JSON.parse(await readFile(join(dataDir, 'run.json'), 'utf8')) as {
    postgres: { port: number };
    services: Record<string, { port: number }>;
  };
  const children: ChildProcess[] = [];
  const pids: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const child = spawn(process.execPath, [join(REPO_ROOT, 'services/label-worker/dist/main.js')], {
      cwd: join(REPO_ROOT, 'services/label-worker'),
      env: {
        ...process.env,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: `postgres://postgres:${encodeURIComponent(secrets.pgPassword)}@127.0.0.1:${run.postgres.port}/flatship`,
        JWT_PUBLIC_KEY: secrets.jwtPublicKey,
        INTERNAL_SECRET: secrets.internalSecret,
        PAYMENTS_URL: `http://127.0.0.1:${run.services.payments?.port}`,
        FILES_DIR: join(dataDir, 'files'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    pids[`label-worker #${i + 2}`] = child.pid ?? 0;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`extra label-worker #${i + 2} did not become ready`);
      }
      await sleep(200);
    }
  }
  return {
    pids,
    async stop() {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
