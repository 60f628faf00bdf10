/**
 * The same reads in Chromium, as the bulk screen does them: the reader bundled for the browser
 * and minified (esbuild, as a production build), run in a page of Debian's Chromium through
 * playwright-core. The page runs it on its main thread; the bulk screen runs the same code in a
 * worker, on the same engine.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Address, Sku } from '@flatship/proto';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/browser';
import { median } from '../stats';

export interface BrowserFile {
  name: string;
  data: Uint8Array;
}

/** The order-files reader of a checkout (its services/order-files) as one browser script defining `OrderFiles`. */
async function readerScript(checkout: string): Promise<string> {
  const result = await build({
    entryPoints: [join(checkout, 'services/order-files/src/index.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'OrderFiles',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return result.outputFiles[0]!.text;
}

export const chromiumAvailable = (): boolean => existsSync(CHROMIUM_PATH);

/**
 * Median wall ms and renderer CPU ms (Chromium's ProcessTime metric, which varies less with the
 * machine's load) of `runs` reads of each file after a warm-up, in one page per checkout; the
 * checkouts alternate run by run. Returns [checkout][file].
 */
export async function browserMedians(
  checkouts: string[],
  files: BrowserFile[],
  ctx: { senderAddress: Address; skus: Sku[] },
  runs: number,
): Promise<{ ms: number; cpu: number }[][]> {
  const scripts = await Promise.all(checkouts.map(readerScript));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const pages = await Promise.all(
      scripts.map(async (script) => {
        const page = await browser.newPage();
        await page.setContent('<!doctype html><title>order files</title>');
        await page.addScriptTag({ content: script });
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Performance.enable');
        const processTime = async (): Promise<number> =>
          (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ProcessTime')?.value ?? 0;
        return { page, processTime };
      }),
    );
    const medians = checkouts.map(() => [] as { ms: number; cpu: number }[]);
    for (const file of files) {
      const base64 = Buffer.from(file.data).toString('base64');
      const times = pages.map(() => [] as { ms: number; cpu: number }[]);
      for (const { page } of pages) {
        // The file's bytes stay in the page; a warm-up read compiles the reader.
        await page.evaluate(
          ({ name, base64, ctx }) => {
            const scope = globalThis as unknown as { file: { name: string; data: Uint8Array }; ctx: unknown };
            scope.file = { name, data: Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)) };
            scope.ctx = ctx;
            (globalThis as unknown as { OrderFiles: { readOrderFile: ReadOrderFile } }).OrderFiles.readOrderFile(
              scope.file,
              ctx,
            );
          },
          { name: file.name, base64, ctx },
        );
      }
      for (let run = 0; run < runs; run++) {
        for (const [i, { page, processTime }] of pages.entries()) {
          const cpu = await processTime();
          const ms = await page.evaluate(() => {
            const scope = globalThis as unknown as {
              file: { name: string; data: Uint8Array };
              ctx: unknown;
              OrderFiles: { readOrderFile: ReadOrderFile };
            };
            const start = performance.now();
            scope.OrderFiles.readOrderFile(scope.file, scope.ctx);
            return performance.now() - start;
          });
          times[i]!.push({ ms, cpu: ((await processTime()) - cpu) * 1000 });
        }
      }
      times.forEach((list, i) => {
        medians[i]!.push({ ms: median(list.map((t) => t.ms)), cpu: median(list.map((t) => t.cpu)) });
      });
    }
    return medians;
  } finally {
    await browser.close();
  }
}

type ReadOrderFile = (file: { name: string; data: Uint8Array }, ctx: unknown) => unknown;
