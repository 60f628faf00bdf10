import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildRunnables, presentRunnables, RUNNABLES, staleReason } from '../build/build.mjs';
import { REPO_ROOT } from '../src/paths';

const run = promisify(execFile);

describe('the product build', () => {
  test('every runnable the platform deploys is in the one list, each built to its workspace dist/', () => {
    const outs = Object.fromEntries(RUNNABLES.map((r) => [r.name, r.out]));
    expect(outs).toEqual({
      gateway: 'gateway/dist/main.js',
      auth: 'services/auth/dist/main.js',
      orders: 'services/orders/dist/main.js',
      payments: 'services/payments/dist/main.js',
      'services-pricing': 'services/services-pricing/dist/main.js',
      admin: 'services/admin/dist/main.js',
      'label-worker': 'services/label-worker/dist/main.js',
      launcher: 'infra/dist/launcher.js',
      btcpay: 'infra/dist/btcpay.js',
      'db-setup': 'infra/dist/db-setup.js',
      'create-topics': 'infra/dist/create-topics.js',
    });
    // The test setup built whatever was stale, so every present runnable is current.
    for (const entry of presentRunnables()) {
      expect(existsSync(join(REPO_ROOT, entry.out)), entry.out).toBe(true);
      expect(staleReason(entry), entry.name).toBeNull();
    }
  });

  test('a bundle carries the workspace packages and loads npm packages from node_modules', async () => {
    const gateway = await readFile(join(REPO_ROOT, 'gateway/dist/main.js'), 'utf8');
    expect(gateway).not.toMatch(/from ["']@flatship\//);
    expect(gateway).toMatch(/from ["']fastify["']/);
    expect(gateway).toContain('// services/kit/src/');
    const auth = await readFile(join(REPO_ROOT, 'services/auth/dist/main.js'), 'utf8');
    // A native module stays an import, resolved at run time to its platform binary.
    expect(auth).toMatch(/from ["']@node-rs\/argon2["']/);
    expect(existsSync(join(REPO_ROOT, 'gateway/dist/main.js.map'))).toBe(true);
  });

  test('the label render threads get their worker next to each bundle that can render, and only there', () => {
    expect(existsSync(join(REPO_ROOT, 'services/label-worker/dist/render-worker.js'))).toBe(true);
    expect(existsSync(join(REPO_ROOT, 'gateway/dist/render-worker.js'))).toBe(false);
    expect(existsSync(join(REPO_ROOT, 'services/auth/dist/render-worker.js'))).toBe(false);
  });
});

describe('building only what is stale', () => {
  let root: string;
  const entry = { name: 'greeter', source: 'src/main.ts', out: 'dist/main.js' };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'flatship-build-'));
    await mkdir(join(root, 'src'));
    await writeFile(
      join(root, 'src', 'main.ts'),
      "import { greeting } from './greeting';\nconsole.log(greeting('compiled'));\n",
    );
    await writeFile(
      join(root, 'src', 'greeting.ts'),
      "export const greeting = (who: string): string => 'hello ' + who;\n",
    );
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  test('a missing bundle is built, runs with plain node, and is then current', async () => {
    expect(staleReason(entry, root)).toBe('dist/main.js is missing');
    const built = await buildRunnables({ root, entries: [entry], onlyStale: true });
    expect(built).toEqual([{ name: 'greeter', reason: 'dist/main.js is missing' }]);
    const { stdout } = await run(process.execPath, [join(root, 'dist', 'main.js')]);
    expect(stdout.trim()).toBe('hello compiled');
    expect(staleReason(entry, root)).toBeNull();
    expect(await buildRunnables({ root, entries: [entry], onlyStale: true })).toEqual([]);
  });

  test('a change to any file the bundle was built from names that file, and the rebuild carries the change', async () => {
    await writeFile(
      join(root, 'src', 'greeting.ts'),
      "export const greeting = (who: string): string => 'hi ' + who;\n",
    );
    const later = new Date(Date.now() + 5000);
    await utimes(join(root, 'src', 'greeting.ts'), later, later);
    expect(staleReason(entry, root)).toBe('src/greeting.ts changed');
    await buildRunnables({ root, entries: [entry], onlyStale: true });
    const { stdout } = await run(process.execPath, [join(root, 'dist', 'main.js')]);
    expect(stdout.trim()).toBe('hi compiled');
  });

  test('a source file that is gone makes the bundle stale', async () => {
    await buildRunnables({ root, entries: [entry] });
    await writeFile(join(root, 'src', 'main.ts'), "console.log('alone');\n");
    await rm(join(root, 'src', 'greeting.ts'));
    expect(staleReason(entry, root)).toBe('src/greeting.ts is gone');
  });
});
