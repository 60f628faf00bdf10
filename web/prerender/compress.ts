import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; source maps are for developers and stay as they are. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 1024;

/** Every file of the build worth compressing, by path relative to `dir`. */
async function compressibleFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (e) => {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) return compressibleFiles(dir, rel);
      if (!COMPRESSIBLE.test(e.name)) return [];
      return (await stat(join(dir, rel))).size >= MIN_BYTES ? [rel] : [];
    }),
  );
  return nested.flat();
}

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build, once, at the
 * highest levels, so the gateway sends them as they are (`preCompressed`) instead of compressing on
 * every request or, worse, sending the bytes uncompressed. Runs after every other plugin has
 * written its files (the pre-rendered index.html and app.html included).
 */
export function compressBuild(): Plugin {
  let outDir = '';
  return {
    name: 'flatship:compress-build',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await compressibleFiles(outDir);
      await Promise.all(
        files.map(async (rel) => {
          const bytes = await readFile(join(outDir, rel));
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzipAsync(bytes, { level: 9 }),
          ]);
          await Promise.all([writeFile(join(outDir, `${rel}.br`), br), writeFile(join(outDir, `${rel}.gz`), gz)]);
        }),
      );
    },
  };
}
