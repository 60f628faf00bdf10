/**
 * What the browser downloads, gzip-compressed: the landing page (entry HTML, its scripts,
 * styles and modulepreloads, the entry chunk's static imports, and the landing route's lazy
 * chunk) and, per route, what it loads beyond the entry. Uses web/dist, rebuilding it first
 * when it is missing or older than the web sources. Sizes are Node's zlib gzip at level 9.
 *
 *   node --import tsx infra/bench/web/run.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWeb, webBuildReason } from '../../src/web-build';

const TARGET_KB = 100;
const root = resolve(import.meta.dirname, '../../..');
const dist = join(root, 'web', 'dist');

const reason = await webBuildReason(root);
if (reason) {
  console.log(`building the web app (${reason})`);
  await buildWeb(root, join(tmpdir(), 'flatship-bench-web-build.log'));
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const fileOf = (url: string): string => join(dist, url.replace(/^\//, ''));
const read = (url: string): Buffer => readFileSync(fileOf(url));
const gzip = (url: string): number => gzipSync(read(url), { level: 9 }).length;

/** A chunk's static imports (`import … from "./x.js"`, `import "./x.js"`), as /assets/ URLs. */
function staticImports(url: string): string[] {
  const code = read(url).toString('utf8');
  const found = [...code.matchAll(/(?:\bfrom|\bimport)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)].map((m) => `/assets/${m[1]}`);
  return [...new Set(found)];
}

/** Every chunk and style `url` loads by static imports, `url` included. */
function closure(url: string, seen = new Set<string>()): Set<string> {
  if (seen.has(url)) return seen;
  seen.add(url);
  for (const next of staticImports(url)) closure(next, seen);
  return seen;
}

/** Dynamic imports of a chunk, with the files Vite preloads with each (`__vite__mapDeps`). */
function dynamicImports(url: string): { chunk: string; deps: string[] }[] {
  const code = read(url).toString('utf8');
  const table = code.match(/m\.f=\[([^\]]*)\]/)?.[1];
  const depFiles = table ? [...table.matchAll(/["'`]([^"'`]+)["'`]/g)].map((m) => `/${m[1]}`) : [];
  const result: { chunk: string; deps: string[] }[] = [];
  for (const m of code.matchAll(/import\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)) {
    const chunk = `/assets/${m[1]}`;
    const after = code.slice(m.index, m.index + 300).match(/__vite__mapDeps\(\[([\d,]*)\]\)/);
    const deps = after?.[1] ? after[1].split(',').map((i) => depFiles[Number(i)]!) : [];
    result.push({ chunk, deps: [...new Set([chunk, ...deps])] });
  }
  for (const m of code.matchAll(/new URL\(\s*["'`](\/assets\/[^"'`]+\.js)["'`]/g))
    result.push({ chunk: m[1]!, deps: [m[1]!] });
  return result;
}

// The entry HTML and what it references.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
const styles = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
const entryFiles = new Set<string>([...styles]);
for (const url of [...scripts, ...preloads]) for (const f of closure(url)) entryFiles.add(f);

// Lazy routes: `const X = lazy(() => import('…/module'))` in the router, and the route whose element renders <X />.
const router = readFileSync(join(root, 'web', 'src', 'app', 'router.tsx'), 'utf8');
const lazyRoutes = new Map<string, string>();
for (const m of router.matchAll(/const (\w+) = lazy\(\s*\(\) =>\s*import\(['"]([^'"]+)['"]\)/g)) {
  const use = router.indexOf(`<${m[1]}`, m.index + m[0].length);
  const paths = [...router.slice(0, use).matchAll(/path: '([^']*)'/g)];
  lazyRoutes.set(basename(m[2]!), use >= 0 && paths.length > 0 ? paths[paths.length - 1]![1]! : '(unrouted)');
}

const lazy = scripts.flatMap(dynamicImports);
const routeChunk = (route: string) =>
  lazy.find((d) => [...lazyRoutes].some(([mod, path]) => path === route && basename(d.chunk).startsWith(`${mod}-`)));
const sum = (files: Iterable<string>, only?: (f: string) => boolean): number =>
  [...files].filter((f) => !only || only(f)).reduce((n, f) => n + gzip(f), 0);
const isJs = (f: string) => f.endsWith('.js');

console.log(
  'gzip sizes: Node zlib gzip, level 9 (the landing JavaScript at level 6, a usual server default, is printed too)',
);
console.log('\nentry (every route loads it):');
console.log(`  ${'index.html'.padEnd(44)} ${kb(gzipSync(html, { level: 9 }).length).padStart(10)}`);
for (const f of entryFiles) console.log(`  ${f.padEnd(44)} ${kb(gzip(f)).padStart(10)}   (${kb(read(f).length)} raw)`);

const landing = routeChunk('/');
const landingFiles = new Set([...entryFiles, ...(landing?.deps ?? [])]);
console.log('\nlanding page (/): entry plus its lazy chunk');
for (const f of landing?.deps ?? []) console.log(`  ${f.padEnd(44)} ${kb(gzip(f)).padStart(10)}`);
const landingJs = sum(landingFiles, isJs);
console.log(
  `  JavaScript ${kb(landingJs)}, with styles and HTML ${kb(sum(landingFiles) + gzipSync(html, { level: 9 }).length)}; target ≤ ${TARGET_KB} KB of JavaScript: ${landingJs <= TARGET_KB * 1024 ? 'met' : `over by ${kb(landingJs - TARGET_KB * 1024)}`}`,
);

const level6 = [...landingFiles].filter(isJs).reduce((n, f) => n + gzipSync(read(f), { level: 6 }).length, 0);
console.log(`  JavaScript at gzip level 6: ${kb(level6)}`);

console.log('\nper route, beyond the entry:');
for (const [mod, path] of lazyRoutes) {
  const d = lazy.find((x) => basename(x.chunk).startsWith(`${mod}-`));
  console.log(`  ${path.padEnd(20)} ${d ? `${d.deps.join(' + ')}: ${kb(sum(d.deps))}` : 'no chunk found'}`);
}
console.log(
  `  every other route    nothing: no route-level splitting today, their pages are in the entry chunk (${kb(sum(entryFiles, isJs))} of JavaScript)`,
);

const onAction = lazy.filter((d) => !landing || d.chunk !== landing.chunk);
if (onAction.length > 0) {
  console.log('\nloaded on an action, not by a route (e.g. reading an order file on the bulk order page):');
  for (const d of onAction) {
    const files = [
      ...new Set(d.deps.flatMap((f) => (existsSync(fileOf(f)) && isJs(f) ? [...closure(f)] : [f]))),
    ].filter((f) => !entryFiles.has(f));
    console.log(`  ${files.join(' + ').padEnd(44)} ${kb(sum(files)).padStart(10)}`);
  }
}
