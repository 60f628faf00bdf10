import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type Plugin } from 'vite';

const webRoot = join(import.meta.dirname, '..');
const LANDING_MODULE = '/src/features/landing/landing-page.tsx';

/** What the app server sends for every address but `/`: the same page without the landing in it. */
export const APP_HTML = 'app.html';

/**
 * Pre-renders the landing page into the built index.html, so a visitor sees it, and can follow its
 * links, before any of the app's JavaScript has run: the landing's markup goes into #root, the
 * stylesheets it needs inline into <head>, its code is preloaded, a small script plays its entrance until the app
 * hydrates it, and without scripts everything shows at once. The page for every other address
 * (app.html) is index.html as Vite wrote it, with an empty #root: those pages must not show the
 * landing while their code loads.
 */
export function prerenderLanding(): Plugin {
  let bootFile = '';
  let outDir = '';
  return {
    name: 'flatship:prerender-landing',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    async generateBundle() {
      const source = await readFile(join(import.meta.dirname, 'landing-boot.js'), 'utf8');
      const ref = this.emitFile({ type: 'asset', name: 'landing-boot.js', source: minify(source) });
      bootFile = this.getFileName(ref);
    },
    async writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const entry = chunks.find((c) => c.isEntry);
      const landing = chunks.find((c) => c.facadeModuleId?.endsWith(LANDING_MODULE));
      if (!entry || !landing) throw new Error('prerender: the entry or the landing chunk is missing from the build');

      // The landing chunk and what it imports beyond the entry: preloaded, and their styles linked.
      const inEntry = new Set<string>();
      const walk = (fileName: string, into: Set<string>) => {
        if (into.has(fileName)) return;
        into.add(fileName);
        const chunk = bundle[fileName];
        if (chunk?.type === 'chunk') for (const next of chunk.imports) walk(next, into);
      };
      walk(entry.fileName, inEntry);
      const landingFiles = new Set<string>();
      walk(landing.fileName, landingFiles);
      const preload = [...landingFiles].filter((f) => !inEntry.has(f));
      const styles = preload.flatMap((f) => {
        const chunk = bundle[f];
        return chunk?.type === 'chunk' ? [...(chunk.viteMetadata?.importedCss ?? [])] : [];
      });

      const markup = await renderLandingMarkup();
      const indexPath = join(outDir, 'index.html');
      const html = await readFile(indexPath, 'utf8');
      await writeFile(join(outDir, APP_HTML), html);

      // The entrance script must run before the app's module script (both are deferred: document order).
      const firstScript = html.indexOf('<script type="module"');
      if (firstScript < 0 || !html.includes('<div id="root"></div>') || !html.includes('</head>'))
        throw new Error('prerender: unexpected index.html');
      // Critical CSS: the app's and the landing's stylesheets go inline, in the order they would apply, so the
      // first paint waits for the page alone, not for stylesheets sharing a slow line with the app's code.
      // The app's links are dropped; the landing's stay as disabled links (neither fetched nor applied), which
      // tell Vite's loader that the landing chunk's styles are already on the page.
      const entryStyles = [...html.matchAll(/\s*<link rel="stylesheet"[^>]*href="\/([^"]+)"[^>]*>/g)];
      const inline = async (files: string[]) =>
        (await Promise.all(files.map((f) => readFile(join(outDir, f), 'utf8')))).join('\n');
      const css = await inline([...entryStyles.map((m) => m[1]!), ...styles]);
      const head = [
        `<style>${css}</style>`,
        ...styles.map((f) => `<link rel="stylesheet" crossorigin href="/${f}" disabled>`),
        ...preload.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
        `<noscript><style>${NO_SCRIPT_CSS}</style></noscript>`,
      ].join('\n    ');
      let landingHtml = `${html.slice(0, firstScript)}<script defer src="/${bootFile}"></script>\n    ${html.slice(firstScript)}`;
      for (const link of entryStyles) landingHtml = landingHtml.replace(link[0], '');
      landingHtml = landingHtml
        .replace('</head>', `    ${head}\n  </head>`)
        .replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
      await writeFile(indexPath, landingHtml);
    },
  };
}

/** Without scripts nothing would ever reveal the hero and the sections, nor open an FAQ answer: all show at once. */
const NO_SCRIPT_CSS = [
  '.lp-hero__inner[hidden]{display:flex;background-image:url(/landing/hero.svg)}',
  '.lp-hero__loading{display:none}',
  '.lp-reveal,.lp-reveal .lp-card{opacity:1;transform:none}',
  '.lp-faq__answer[hidden]{display:block}',
].join('');

/** The landing's HTML, rendered by the app's own code in Node (Vite transforms its TypeScript and skips its CSS). */
async function renderLandingMarkup(): Promise<string> {
  const server = await createServer({
    root: webRoot,
    configFile: false,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const module = (await server.ssrLoadModule('/src/app/prerender.tsx')) as { renderLanding(): Promise<string> };
    return await module.renderLanding();
  } finally {
    await server.close();
  }
}

/** Comments and indentation out: the script is small and read by no one in the browser. */
function minify(source: string): string {
  return source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('//'))
    .join('\n');
}
