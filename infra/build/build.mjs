// Builds every workspace to JavaScript. Runnables (the gateway, each service, the launcher and the infrastructure
// commands) are bundled with esbuild into one ESM file each, `node <workspace>/dist/<name>.js` being all it takes
// to start one: the workspace packages (@flatship/*) are compiled in, npm packages stay external and are loaded from
// node_modules as they are (native modules such as @node-rs/argon2, pino's transports and pdfmake's fonts keep
// working). Library workspaces build their exported entry points to their own dist/ the same way.
//
// Plain JavaScript, so that `make start` and the test setup can build with nothing but Node and esbuild.
//
//   node infra/build/build.mjs                  build everything
//   node infra/build/build.mjs --stale          build only what is missing or older than its sources
//   node infra/build/build.mjs gateway infra    build the runnables and libraries of these workspaces
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root, from this file's place in it. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** This file: a bundle built by an older version of it is rebuilt. */
const BUILDER = fileURLToPath(import.meta.url);

/**
 * Every program the product runs, in one place. `source` and `out` are relative to the repository root; `optional`
 * entries are built when their source exists (commands that other parts of the platform add).
 */
export const RUNNABLES = [
  { name: 'gateway', source: 'gateway/src/main.ts', out: 'gateway/dist/main.js' },
  { name: 'auth', source: 'services/auth/src/main.ts', out: 'services/auth/dist/main.js' },
  { name: 'orders', source: 'services/orders/src/main.ts', out: 'services/orders/dist/main.js' },
  { name: 'payments', source: 'services/payments/src/main.ts', out: 'services/payments/dist/main.js' },
  {
    name: 'services-pricing',
    source: 'services/services-pricing/src/main.ts',
    out: 'services/services-pricing/dist/main.js',
  },
  { name: 'admin', source: 'services/admin/src/main.ts', out: 'services/admin/dist/main.js' },
  { name: 'label-worker', source: 'services/label-worker/src/main.ts', out: 'services/label-worker/dist/main.js' },
  { name: 'launcher', source: 'infra/src/launcher.ts', out: 'infra/dist/launcher.js' },
  { name: 'btcpay', source: 'infra/src/btcpay/main.ts', out: 'infra/dist/btcpay.js' },
  { name: 'db-setup', source: 'infra/src/db-setup-main.ts', out: 'infra/dist/db-setup.js', optional: true },
  { name: 'create-topics', source: 'infra/kafka/create-topics.ts', out: 'infra/dist/create-topics.js', optional: true },
];

/** Library workspaces: each entry point of their package.json `exports` builds to dist/<name>.js. */
export const LIBRARIES = ['proto', 'services/kit', 'services/carriers', 'services/order-files'];

/**
 * Modules a bundle loads from disk beside itself at run time. When a bundle includes `when`, `source` is built next
 * to it as `out`: the label render pool starts its worker threads from render-worker.js in the bundle's directory.
 */
export const COMPANIONS = [
  {
    when: 'services/carriers/src/label/render-pool.ts',
    source: 'services/carriers/src/label/render-worker.ts',
    out: 'render-worker.js',
  },
];

/** The runnables whose source is present. */
export function presentRunnables(root = REPO_ROOT) {
  return RUNNABLES.filter((r) => !r.optional || existsSync(join(root, r.source)));
}

const manifestPath = (out) => out.replace(/\.js$/, '.build.json');
/** A program's bundled code, which its `out` file loads. */
const codeFileOf = (out) => out.replace(/\.js$/, '.bundle.js');

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

/**
 * Why a runnable must be (re)built, or null when its bundle is newer than every file it was built from. The
 * bundle's manifest lists those files (every source esbuild read); a newer builder counts too.
 */
export function staleReason(entry, root = REPO_ROOT) {
  for (const file of [entry.out, codeFileOf(entry.out)]) {
    if (!existsSync(join(root, file))) return `${file} is missing`;
  }
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(root, manifestPath(entry.out)), 'utf8'));
  } catch {
    return `${manifestPath(entry.out)} is missing`;
  }
  if ((mtime(BUILDER) ?? 0) > manifest.builtAt) return `${relative(root, BUILDER)} changed`;
  for (const file of manifest.inputs) {
    const changed = mtime(join(root, file));
    if (changed === undefined) return `${file} is gone`;
    if (changed > manifest.builtAt) return `${file} changed`;
  }
  for (const companion of manifest.companions ?? []) {
    if (!existsSync(join(root, companion))) return `${companion} is missing`;
  }
  return null;
}

/**
 * npm packages compiled into a program's bundle rather than loaded from node_modules: plain JavaScript made of many
 * small modules, no native code, no files read beside themselves, so the bundle carries them as they are. Every
 * process loads them at start, and reading and compiling each of their files is most of what starting costs:
 * typebox alone is 700 ES modules, about 0.3 CPU seconds per process.
 */
export const BUNDLED_NPM_PACKAGES = ['typebox'];

const packageName = (specifier) => specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * Bundles workspace packages in (and BUNDLED_NPM_PACKAGES, with them) and leaves other npm packages (bare imports
 * outside @flatship) to node_modules.
 */
const externalNpmPackages = (bundleWorkspaces) => ({
  name: 'external-npm-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      if (bundleWorkspaces && args.path.startsWith('@flatship/')) return undefined;
      if (bundleWorkspaces && BUNDLED_NPM_PACKAGES.includes(packageName(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
});

/**
 * What `node dist/<name>.js` runs: it turns source maps on, so stack traces name the TypeScript sources, and then
 * loads the bundled code from `<name>.bundle.js`. Node maps only code loaded after that switch, which is why the
 * switch and the code are two files.
 */
const launcherOf = (bundleFile) =>
  [
    '// Built by infra/build/build.mjs: source maps on first, then the bundled code, so stack traces name the sources.',
    'process.setSourceMapsEnabled(true);',
    `await import('./${bundleFile}');`,
    '',
  ].join('\n');

async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch {
    throw new Error('esbuild is not installed; run `npm ci` (it is a development dependency of the repository)');
  }
}

/** Writes each output under a temporary name then renames it, so a process starting meanwhile never reads half. */
async function writeOutputs(outputFiles) {
  for (const file of outputFiles) {
    await mkdir(dirname(file.path), { recursive: true });
    const tmp = `${file.path}.${process.pid}.tmp`;
    await writeFile(tmp, file.contents);
    await rename(tmp, file.path);
  }
}

/**
 * Bundles `source`. A program (`runnable`) is written as `out` starting `<out>.bundle.js`; a library as `out` itself.
 * Returns esbuild's result with the starting file added to its outputs.
 */
async function bundle(esbuild, { root, source, out, bundleWorkspaces, runnable }) {
  const codeFile = runnable ? codeFileOf(out) : out;
  const result = await esbuild.build({
    absWorkingDir: root,
    // A program's code is split where it imports a module with `await import()`: that module, and the npm packages
    // only it needs, load the first time they are used instead of at start (the label renderer and its fonts in a
    // service that has not rendered yet). The shared chunks go to chunks/ beside the bundle.
    ...(runnable
      ? {
          entryPoints: { [basename(codeFile, '.js')]: join(root, source) },
          outdir: join(root, dirname(codeFile)),
          entryNames: '[name]',
          chunkNames: 'chunks/[name]-[hash]',
          splitting: true,
        }
      : { entryPoints: [join(root, source)], outfile: join(root, codeFile) }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // Stack traces need only the mappings and the source names; the sources themselves are in the repository.
    // Without copies of them in every map, each process parses and holds a few MB less at start.
    sourcesContent: false,
    keepNames: true,
    metafile: true,
    write: false,
    logLevel: 'silent',
    // Every workspace's package.json says `"sideEffects": false`: the repository's modules define things and do
    // nothing when imported, so a module none of whose exports a program uses is left out of its bundle, and with it
    // its imports of npm packages. A service taking one helper from a barrel (`@flatship/kit`, `@flatship/carriers`)
    // then does not load, at every start, what the barrel's other modules need (kafkajs, knex, pdfkit, …).
    // infra/test/build.test.ts checks that every workspace declares it.
    plugins: [externalNpmPackages(bundleWorkspaces)],
  });
  if (runnable) {
    const contents = new TextEncoder().encode(launcherOf(basename(codeFile)));
    result.outputFiles.push({ path: join(root, out), contents });
  }
  return result;
}

/** The split-off chunks a build wrote (relative to the root), without their source maps. */
const chunksOf = (result, root) =>
  Object.keys(result.metafile.outputs)
    .map((file) => relative(root, resolve(root, file)))
    .filter((file) => /\/chunks\/[^/]+\.js$/.test(file));

/** Builds one runnable (and its companions) and records what it was built from. */
export async function buildRunnable(entry, root = REPO_ROOT) {
  const esbuild = await loadEsbuild();
  const builtAt = Date.now();
  const main = await bundle(esbuild, {
    root,
    source: entry.source,
    out: entry.out,
    bundleWorkspaces: true,
    runnable: true,
  });
  const inputs = new Set(Object.keys(main.metafile.inputs));
  const outputs = [...main.outputFiles];
  // The chunks the bundle loads later: a missing one makes it stale, as a missing companion does.
  const companions = chunksOf(main, root);
  for (const companion of COMPANIONS) {
    if (!inputs.has(companion.when)) continue;
    const out = join(dirname(entry.out), companion.out);
    const built = await bundle(esbuild, {
      root,
      source: companion.source,
      out,
      bundleWorkspaces: true,
      runnable: true,
    });
    for (const input of Object.keys(built.metafile.inputs)) inputs.add(input);
    outputs.push(...built.outputFiles);
    companions.push(out, codeFileOf(out), ...chunksOf(built, root));
  }
  await writeOutputs(outputs);
  const manifest = { builtAt, source: entry.source, inputs: [...inputs].sort(), companions };
  await writeOutputs([
    { path: join(root, manifestPath(entry.out)), contents: `${JSON.stringify(manifest, null, 2)}\n` },
  ]);
}

/** Builds a library workspace's exported entry points to its dist/, workspace imports left as imports. */
export async function buildLibrary(dir, root = REPO_ROOT) {
  const esbuild = await loadEsbuild();
  const pkg = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8'));
  const exportsMap = typeof pkg.exports === 'string' ? { '.': pkg.exports } : (pkg.exports ?? {});
  for (const [key, source] of Object.entries(exportsMap)) {
    const name = key === '.' ? 'index' : key.replace(/^\.\//, '');
    const out = join(dir, 'dist', `${name}.js`);
    const result = await bundle(esbuild, { root, source: join(dir, source), out, bundleWorkspaces: false });
    await writeOutputs(result.outputFiles);
  }
}

/**
 * Builds the runnables given (every present one by default); with `onlyStale`, only those missing or older than
 * their sources. Returns what was built and why.
 */
export async function buildRunnables(opts = {}) {
  const root = opts.root ?? REPO_ROOT;
  const entries = opts.entries ?? presentRunnables(root);
  const todo = [];
  for (const entry of entries) {
    const reason = opts.onlyStale ? staleReason(entry, root) : 'asked for';
    if (reason) todo.push({ name: entry.name, reason, entry });
  }
  if (todo.length > 0) opts.onStart?.(todo.map(({ name, reason }) => ({ name, reason })));
  await Promise.all(todo.map(({ entry }) => buildRunnable(entry, root)));
  return todo.map(({ name, reason }) => ({ name, reason }));
}

/** A line for people: which runnables are being built and the first reason. */
export function describeBuild(todo) {
  const names = todo.map((t) => t.name).join(', ');
  return `Building ${names} (${todo[0].reason}${todo.length > 1 ? ', …' : ''})…`;
}

async function main(args) {
  const onlyStale = args.includes('--stale');
  const workspaces = args.filter((a) => !a.startsWith('--')).map((w) => w.replace(/\/+$/, ''));
  const inWorkspace = (path) => workspaces.length === 0 || workspaces.some((w) => path.startsWith(`${w}/`));
  const entries = presentRunnables().filter((r) => inWorkspace(r.out));
  const libraries = LIBRARIES.filter((dir) => inWorkspace(`${dir}/`));
  const started = Date.now();
  const built = await buildRunnables({
    entries,
    onlyStale,
    onStart: (todo) => process.stdout.write(`${describeBuild(todo)}\n`),
  });
  if (!onlyStale) for (const dir of libraries) await buildLibrary(dir);
  if (built.length > 0 || !onlyStale) {
    const what = [...built.map((b) => b.name), ...(onlyStale ? [] : libraries)].join(', ');
    process.stdout.write(`Built ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`build failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
