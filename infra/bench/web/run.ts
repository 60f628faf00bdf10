/**
 * What the landing page really loads, measured in the browser (Debian's Chromium through playwright-core):
 * the built web app (web/dist, rebuilt first when older than its sources) is served on 127.0.0.1 as the
 * gateway serves it (`/` gets index.html, any other route app.html when the build has one, assets as
 * themselves) and gzip-compressed, with stand-in API answers (a signed-in admin for the signed-in routes,
 * 503 for everything else). It prints:
 *
 * - every JavaScript and CSS file the browser requests for `/`, with its gzip size (zlib level 9, the
 *   figure of the issue's row; level 6, a usual server default, too), until the network is idle;
 * - per route, the JavaScript it loads and what it loads beyond `/`;
 * - on a throttled network (Chrome's "Fast 3G" profile through CDP, cache disabled, median of several
 *   fresh loads): when the landing's content is first painted (first-contentful-paint, and the moment its
 *   navbar is in the page and painted) against when the app's JavaScript has finished loading.
 *
 * `--baseline <dir>` measures another build side by side in the same run (e.g. /work/main/web/dist).
 * A measurement, not a test: it prints figures and exits 0.
 *
 *   node --import tsx infra/bench/web/run.ts [--baseline <dist dir>] [--loads 5]
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../e2e/browser';
import { buildWeb, webBuildReason } from '../../src/web-build';
import { median } from '../stats';

const TARGET_KB = 100;
const root = resolve(import.meta.dirname, '../../..');
const { values: args } = parseArgs({
  options: { baseline: { type: 'string' }, loads: { type: 'string', default: '5' } },
});
const LOADS = Math.max(1, Number(args.loads));

/** Chrome DevTools' "Fast 3G" preset. */
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9,
  uploadThroughput: ((750 * 1024) / 8) * 0.9,
};

/** Routes of the table; the signed-in ones are opened with a stored token that the stand-in API accepts. */
const ROUTES: { path: string; signedIn?: boolean }[] = [
  { path: '/' },
  { path: '/login' },
  { path: '/register' },
  { path: '/main/dashboard', signedIn: true },
  { path: '/main/order-label', signedIn: true },
  { path: '/main/bulk-order', signedIn: true },
  { path: '/main/orders', signedIn: true },
  { path: '/main/deposit', signedIn: true },
  { path: '/admin/dashboard', signedIn: true },
  { path: '/admin/user-management', signedIn: true },
];

const STAND_IN_USER = {
  _id: 'bench-user',
  name: 'Bench Admin',
  email: 'bench@example.com',
  avatar: '',
  user_role: 'admin',
  activation: 'allow',
  referralCode: 'BENCH',
  referredBy: null,
  balance: 100,
  totalDeposit: 100,
  totalSpent: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
};

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The build's files, gzipped once (level 9 served and counted; level 6 counted too), and their Brotli size
 * (the build's own `.br` copy, which the gateway sends to browsers that accept it; compressed here when missing).
 */
class Dist {
  private readonly cache = new Map<string, { raw: Buffer; gz9: Buffer; gz6: number; br: number }>();
  constructor(readonly dir: string) {}
  file(rel: string) {
    let entry = this.cache.get(rel);
    if (!entry) {
      const raw = readFileSync(join(this.dir, rel));
      const brCopy = join(this.dir, `${rel}.br`);
      const br = existsSync(brCopy)
        ? statSync(brCopy).size
        : brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })
            .length;
      entry = { raw, gz9: gzipSync(raw, { level: 9 }), gz6: gzipSync(raw, { level: 6 }).length, br };
      this.cache.set(rel, entry);
    }
    return entry;
  }
  exists(rel: string): boolean {
    const full = join(this.dir, rel);
    return !rel.split('/').some((s) => s.startsWith('.')) && existsSync(full) && statSync(full).isFile();
  }
}

/** Serves a build the way the gateway does, gzip-compressed, with the stand-in API. */
async function serve(dist: Dist): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    if (path.startsWith('/api/')) {
      if (path === '/api/auth/verify' && req.headers.token === 'bench-token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ user: STAND_IN_USER }));
      } else {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'stand-in API' }));
      }
      return;
    }
    if (path.startsWith('/socket.io')) {
      res.writeHead(404).end();
      return;
    }
    let rel = path.replace(/^\/+/, '');
    if (!rel || !dist.exists(rel)) {
      if (path.startsWith('/assets/')) {
        res.writeHead(404).end();
        return;
      }
      rel = path !== '/' && dist.exists('app.html') ? 'app.html' : 'index.html';
    }
    const file = dist.file(rel);
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    res.writeHead(200, {
      'content-type': TYPES[extname(rel)] ?? 'application/octet-stream',
      'cache-control': rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(gzip ? file.gz9 : file.raw);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** The JavaScript and CSS files a fresh browser requests for `path`, until the network is idle. */
async function requested(browser: Browser, origin: string, path: string, signedIn = false): Promise<string[]> {
  const context = await browser.newContext();
  if (signedIn) await context.addInitScript(() => localStorage.setItem('token', 'bench-token'));
  const page = await context.newPage();
  const files: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === origin && /\.(js|css)$/.test(url.pathname)) files.push(url.pathname.slice(1));
  });
  await page.goto(origin + path, { waitUntil: 'networkidle' });
  // On a busy machine the lazy page can be requested after the network has been idle for a while:
  // wait until the page, not its loader, is on screen, then for the network again.
  await page
    .waitForFunction(() => document.getElementById('root')?.firstElementChild && !document.querySelector('.loader'), {
      timeout: 30_000,
    })
    .catch(() => console.log(`  (${path}: still loading after 30 s)`));
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await context.close();
  return [...new Set(files)];
}

interface Timing {
  fcp: number;
  landingPainted: number;
  appJsLoaded: number;
}

/** One fresh, throttled load of `/`: paint times against the end of the last JavaScript download. */
async function timeLanding(browser: Browser, origin: string): Promise<Timing> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // When the landing's navbar is first in the page, then painted (the frame after it appeared).
  // A string, not a function: tsx's helpers (`__name`) do not exist in the page.
  await page.addInitScript({
    content: `(() => {
      const seen = () => {
        if (window.__landingPainted !== undefined || !document.querySelector('.lp-nav')) return false;
        window.__landingPainted = -1;
        requestAnimationFrame(() => setTimeout(() => { window.__landingPainted = performance.now(); }, 0));
        return true;
      };
      const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
      observer.observe(document, { childList: true, subtree: true });
    })();`,
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', FAST_3G);
  await page.goto(`${origin}/`, { waitUntil: 'networkidle', timeout: 120_000 });
  await page.waitForFunction(() => ((window as unknown as { __landingPainted?: number }).__landingPainted ?? -1) > 0);
  const timing = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
    const scripts = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.endsWith('.js')) as PerformanceResourceTiming[];
    return {
      fcp,
      // Not before the first paint: the navbar may be in the page a frame before anything is painted.
      landingPainted: Math.max(fcp, (window as unknown as { __landingPainted: number }).__landingPainted),
      appJsLoaded: Math.max(...scripts.map((e) => e.responseEnd)),
    };
  });
  await context.close();
  return timing;
}

interface Report {
  label: string;
  landing: string[];
  routes: Map<string, string[]>;
  timings: Timing[];
}

async function measure(label: string, dist: Dist, browser: Browser): Promise<Report> {
  const { url, server } = await serve(dist);
  try {
    const routes = new Map<string, string[]>();
    for (const route of ROUTES) routes.set(route.path, await requested(browser, url, route.path, route.signedIn));
    const timings: Timing[] = [];
    for (let i = 0; i < LOADS; i++) timings.push(await timeLanding(browser, url));
    return { label, landing: routes.get('/')!, routes, timings };
  } finally {
    await new Promise((r) => server.close(r));
  }
}

function print(report: Report, dist: Dist) {
  const gz = (f: string) => dist.file(f).gz9.length;
  const sum = (files: string[], ext?: string) =>
    files.filter((f) => !ext || f.endsWith(ext)).reduce((n, f) => n + gz(f), 0);
  console.log(`\n== ${report.label}: ${dist.dir}`);
  console.log('what the browser requests for / (gzip level 9):');
  const html = dist.file('index.html');
  console.log(`  ${'index.html'.padEnd(48)} ${kb(html.gz9.length).padStart(9)}   (${kb(html.raw.length)} raw)`);
  for (const f of report.landing)
    console.log(`  ${f.padEnd(48)} ${kb(gz(f)).padStart(9)}   (${kb(dist.file(f).raw.length)} raw)`);
  const js = sum(report.landing, '.js');
  const landingJs = report.landing.filter((f) => f.endsWith('.js'));
  const js6 = landingJs.reduce((n, f) => n + dist.file(f).gz6, 0);
  const jsBr = landingJs.reduce((n, f) => n + dist.file(f).br, 0);
  console.log(
    `  JavaScript ${kb(js)} (level 6: ${kb(js6)}; Brotli, as the gateway sends it: ${kb(jsBr)}), CSS ${kb(sum(report.landing, '.css'))}, with the HTML ${kb(sum(report.landing) + html.gz9.length)}; ` +
      `target ≤ ${TARGET_KB} KB of JavaScript: ${js <= TARGET_KB * 1024 ? 'met' : `over by ${kb(js - TARGET_KB * 1024)}`}`,
  );
  console.log('per route: JavaScript it loads (gzip), and what it loads beyond /:');
  const landingSet = new Set(report.landing);
  for (const [path, files] of report.routes) {
    const extra = files.filter((f) => !landingSet.has(f));
    console.log(
      `  ${path.padEnd(26)} ${kb(sum(files, '.js')).padStart(9)}   beyond /: ${kb(sum(extra, '.js')).padStart(9)} JS + ${kb(sum(extra, '.css'))} CSS in ${extra.length} files`,
    );
  }
  const t = report.timings;
  const ms = (xs: number[]) => `${Math.round(median(xs))} ms`.padStart(8);
  console.log(`on "Fast 3G" (562.5 ms latency, 1.44 Mbit/s down), cache off, median of ${t.length} loads of /:`);
  console.log(`  first-contentful-paint                    ${ms(t.map((x) => x.fcp))}`);
  console.log(`  landing content (its navbar) painted      ${ms(t.map((x) => x.landingPainted))}`);
  console.log(`  app JavaScript finished loading           ${ms(t.map((x) => x.appJsLoaded))}`);
  console.log(
    `  landing on screen before the app's code:  ${ms(t.map((x) => x.appJsLoaded - x.landingPainted))}  (negative: only after it)`,
  );
}

const reason = await webBuildReason(root);
if (reason) {
  console.log(`building the web app (${reason})`);
  await buildWeb(root, join(tmpdir(), 'flatship-bench-web-build.log'));
}
const builds: [string, Dist][] = [];
if (args.baseline) builds.push(['baseline', new Dist(resolve(args.baseline))]);
builds.push(['this build', new Dist(join(root, 'web', 'dist'))]);

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} on this machine; ${LOADS} throttled loads per build`,
);
const browser = await launchBrowser();
try {
  const reports: [Report, Dist][] = [];
  for (const [label, dist] of builds) reports.push([await measure(label, dist, browser), dist]);
  for (const [report, dist] of reports) print(report, dist);
} finally {
  await browser.close();
}
console.log(
  `\nload average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} at the end`,
);
