// @vitest-environment node
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const web = join(import.meta.dirname, '../..');
let outDir = '';
let indexHtml = '';
let appHtml = '';

// The real production build (Vite with the project's config) into a temporary directory.
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'flatship-web-build-'));
  await build({
    root: web,
    configFile: join(web, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
  indexHtml = readFileSync(join(outDir, 'index.html'), 'utf8');
  appHtml = readFileSync(join(outDir, 'app.html'), 'utf8');
}, 300_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const assetsOf = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]!);

describe('the built index.html', () => {
  it('has the landing page in it, with links that work without scripts', () => {
    const root = indexHtml.slice(indexHtml.indexOf('<div id="root">'), indexHtml.lastIndexOf('</body>'));
    expect(root).toContain('<h1 id="landing-title" class="lp-hero__title">One flat price. ');
    for (const id of ['landing', 'how-it-works', 'why-choose-us', 'pricing', 'faq', 'feedback', 'ready-to-ship'])
      expect(root).toContain(`id="${id}"`);
    expect(root).toMatch(/<a class="lp-nav__link" href="\/login"[^>]*>Login<\/a>/);
    expect(root).toMatch(/<a class="lp-nav__cta" href="\/register"[^>]*>Register<\/a>/);
    expect(root).toContain('href="#pricing"');
  });

  it('has its styles inline, preloads its code, runs its entrance script before the app, and shows all without scripts', () => {
    // Inline: the first paint waits for no stylesheet. The landing chunk's own files stay as disabled links.
    const inlineCss = indexHtml.slice(indexHtml.indexOf('<style>'), indexHtml.indexOf('</style>'));
    for (const selector of ['.lp-hero', '.lp-nav', '.loader', '--color-navy-900'])
      expect(inlineCss).toContain(selector);
    const links = [...indexHtml.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((m) => m[0]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/ disabled>$/);
    const styles = assetsOf(indexHtml, /<link rel="stylesheet"[^>]*href="\/([^"]+)"/g);
    expect(styles.some((f) => /^assets\/landing-page-.*\.css$/.test(f))).toBe(true);
    const preloads = assetsOf(indexHtml, /<link rel="modulepreload"[^>]*href="\/([^"]+)"/g);
    expect(preloads.some((f) => /^assets\/landing-page-.*\.js$/.test(f))).toBe(true);
    for (const file of [...styles, ...preloads]) expect(existsSync(join(outDir, file))).toBe(true);

    const boot = indexHtml.indexOf('<script defer src="/assets/landing-boot-');
    expect(boot).toBeGreaterThan(0);
    expect(boot).toBeLessThan(indexHtml.indexOf('<script type="module"'));
    expect(indexHtml).toMatch(/<noscript><style>[^<]*\.lp-reveal[^<]*<\/style><\/noscript>/);
  });

  it('leaves app.html, the page of every other route, without the landing', () => {
    expect(appHtml).toContain('<div id="root"></div>');
    expect(appHtml).not.toContain('lp-page');
    expect(appHtml).not.toContain('landing-boot');
    const entry = assetsOf(indexHtml, /<script type="module"[^>]*src="\/([^"]+)"/g);
    expect(assetsOf(appHtml, /<script type="module"[^>]*src="\/([^"]+)"/g)).toEqual(entry);
  });
});

describe('the compressed copies', () => {
  it('sit beside every script, stylesheet and page, and unpack to exactly the file', () => {
    const assets = readdirSync(join(outDir, 'assets'));
    // Below 1 KB a compressed copy saves less than its headers cost, so small files have none.
    const texts = [
      'index.html',
      'app.html',
      ...assets.filter((f) => /\.(js|css)$/.test(f)).map((f) => `assets/${f}`),
    ].filter((file) => readFileSync(join(outDir, file)).length >= 1024);
    expect(texts).toContain('index.html');
    expect(texts.length).toBeGreaterThan(4);
    for (const file of texts) {
      const original = readFileSync(join(outDir, file));
      const br = readFileSync(join(outDir, `${file}.br`));
      expect(brotliDecompressSync(br).equals(original)).toBe(true);
      expect(gunzipSync(readFileSync(join(outDir, `${file}.gz`))).equals(original)).toBe(true);
      expect(br.length).toBeLessThan(original.length);
    }
  });
});
