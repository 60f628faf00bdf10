import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildRunnables, presentRunnables, RUNNABLES, staleReason } from '../build/build.mjs';
import { REPO_ROOT } from '../src/paths';

const run = promisify(execFile);

/** package.json of every workspace (the root's `workspaces` globs are a directory or `<dir>/*`). */
async function workspacePackageFiles(globs: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const glob of globs) {
    const dirs = glob.endsWith('/*')
      ? (await readdir(join(REPO_ROOT, glob.slice(0, -2)))).map((d) => `${glob.slice(0, -2)}/${d}`)
      : [glob];
    for (const dir of dirs) if (existsSync(join(REPO_ROOT, dir, 'package.json'))) files.push(`${dir}/package.json`);
  }
  return files;
}

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
    const gateway = await readFile(join(REPO_ROOT, 'gateway/dist/main.bundle.js'), 'utf8');
    expect(gateway).not.toMatch(/from ["']@flatship\//);
    expect(gateway).toMatch(/from ["']fastify["']/);
    expect(gateway).toContain('// services/kit/src/');
    const auth = await readFile(join(REPO_ROOT, 'services/auth/dist/main.bundle.js'), 'utf8');
    // A native module stays an import, resolved at run time to its platform binary.
    expect(auth).toMatch(/from ["']@node-rs\/argon2["']/);
    expect(existsSync(join(REPO_ROOT, 'gateway/dist/main.bundle.js.map'))).toBe(true);
  });

  test('every workspace the services are built from says its modules have no import-time effects', async () => {
    // The bundles leave out what a program does not use only where package.json says so (see bundle() in build.mjs).
    // The web app is built by Vite, and its stylesheet imports are effects.
    const root = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
    const files = (await workspacePackageFiles(root.workspaces)).filter((f) => f !== 'web/package.json');
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const pkg = JSON.parse(await readFile(join(REPO_ROOT, file), 'utf8')) as { sideEffects?: unknown };
      expect(pkg.sideEffects, file).toBe(false);
    }
  });

  test("a bundle loads only the npm packages of the workspace modules it uses, and carries typebox's modules in", async () => {
    const launcher = await readFile(join(REPO_ROOT, 'infra/dist/launcher.bundle.js'), 'utf8');
    // The launcher takes its configuration reader from @flatship/kit; the rest of kit, and what it loads, stays out.
    expect(launcher).toContain('// services/kit/src/config.ts');
    expect(launcher).not.toContain('// services/kit/src/app.ts');
    expect(launcher).not.toMatch(/from ["'](fastify|knex|kafkajs|prom-client)["']/);
    expect(launcher).toMatch(/from ["']pg["']/);
    for (const entry of presentRunnables()) {
      const code = await readFile(join(REPO_ROOT, entry.out.replace(/\.js$/, '.bundle.js')), 'utf8');
      expect(code, entry.name).not.toMatch(/from ["']typebox[/"']/);
    }
  });

  test('the label renderer is split off the services that render labels, and loads with their first label', async () => {
    for (const service of ['services-pricing', 'admin', 'orders', 'label-worker']) {
      const dist = join(REPO_ROOT, 'services', service, 'dist');
      const bundle = await readFile(join(dist, 'main.bundle.js'), 'utf8');
      expect(bundle, service).not.toMatch(/from ["'](pdfmake|bwip-js)/);
      const { companions } = JSON.parse(await readFile(join(dist, 'main.build.json'), 'utf8')) as {
        companions: string[];
      };
      const chunks = await Promise.all(
        companions.filter((f) => f.includes('/chunks/')).map((f) => readFile(join(REPO_ROOT, f), 'utf8')),
      );
      expect(
        chunks.some((code) => /from ["']pdfmake["']/.test(code)),
        service,
      ).toBe(true);
    }
  });

  test('tsx and esbuild are development tools: no workspace needs them to run, and no bundle loads them', async () => {
    const rootPkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      workspaces: string[];
      dependencies?: Record<string, string>;
    };
    const manifests = ['package.json', ...(await workspacePackageFiles(rootPkg.workspaces))];
    for (const file of manifests) {
      const pkg = JSON.parse(await readFile(join(REPO_ROOT, file), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      expect(Object.keys(pkg.dependencies ?? {}), file).not.toContain('tsx');
      expect(Object.keys(pkg.dependencies ?? {}), file).not.toContain('esbuild');
    }
    for (const entry of presentRunnables()) {
      const code = await readFile(join(REPO_ROOT, entry.out.replace(/\.js$/, '.bundle.js')), 'utf8');
      expect(code, entry.name).not.toMatch(/from ["'](tsx|esbuild)[/"']/);
    }
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
    await rm(join(root, 'dist', 'main.bundle.js'));
    expect(staleReason(entry, root)).toBe('dist/main.bundle.js is missing');
    await buildRunnables({ root, entries: [entry], onlyStale: true });
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

  test('a stack trace from the built program names the TypeScript source and line', async () => {
    await writeFile(
      join(root, 'src', 'main.ts'),
      "const fail = (): never => {\n  throw new Error('mapped');\n};\nfail();\n",
    );
    await buildRunnables({ root, entries: [entry] });
    const failed = await run(process.execPath, [join(root, 'dist', 'main.js')]).catch((e: { stderr: string }) => e);
    expect((failed as { stderr: string }).stderr).toContain(`${join(root, 'src', 'main.ts')}:2:`);
  });

  test('a source that does not compile fails the build naming the file and line, and leaves the last bundle in place', async () => {
    await writeFile(join(root, 'src', 'main.ts'), "console.log('fine');\nconst broken = ;\n");
    await expect(buildRunnables({ root, entries: [entry] })).rejects.toThrow(
      /src\/main\.ts:2:15: ERROR: Unexpected ";"/,
    );
    expect(existsSync(join(root, 'dist', 'main.bundle.js'))).toBe(true);
  });

  test('a source file that is gone makes the bundle stale', async () => {
    await writeFile(
      join(root, 'src', 'main.ts'),
      "import { greeting } from './greeting';\nconsole.log(greeting('x'));\n",
    );
    await buildRunnables({ root, entries: [entry] });
    await writeFile(join(root, 'src', 'main.ts'), "console.log('alone');\n");
    await rm(join(root, 'src', 'greeting.ts'));
    expect(staleReason(entry, root)).toBe('src/greeting.ts is gone');
  });

  test('a module imported with await import() is a chunk of its own, loaded when used; a missing chunk makes the bundle stale', async () => {
    await writeFile(join(root, 'src', 'later.ts'), "export const later = (): string => 'loaded later';\n");
    await writeFile(
      join(root, 'src', 'main.ts'),
      "console.log('first');\nconst { later } = await import('./later');\nconsole.log(later());\n",
    );
    await buildRunnables({ root, entries: [entry] });
    const bundle = await readFile(join(root, 'dist', 'main.bundle.js'), 'utf8');
    expect(bundle).not.toContain('loaded later');
    const chunks = (await readdir(join(root, 'dist', 'chunks'))).filter((f) => f.endsWith('.js'));
    expect(chunks).toHaveLength(1);
    const { stdout } = await run(process.execPath, [join(root, 'dist', 'main.js')]);
    expect(stdout.trim().split('\n')).toEqual(['first', 'loaded later']);
    expect(staleReason(entry, root)).toBeNull();
    await rm(join(root, 'dist', 'chunks', chunks[0]!));
    expect(staleReason(entry, root)).toBe(`dist/chunks/${chunks[0]} is missing`);
  });
});
