import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { FileStore } from '../domain/ports';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Files on a local disk under `root` (FILES_DIR). Keys are checked segment by
 * segment, so no key can name a file outside the root. Writes go to a
 * temporary name in the same folder and are renamed into place once synced:
 * a reader sees the whole file or none.
 */
export function createLocalFileStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (key: string): string => {
    const parts = key.split('/');
    if (parts.length === 0 || !parts.every((p) => SEGMENT.test(p) && !p.includes('..'))) {
      throw new Error(`invalid file key ${JSON.stringify(key)}`);
    }
    const full = join(base, ...parts);
    if (!full.startsWith(base + sep)) throw new Error(`file key escapes the store: ${key}`);
    return full;
  };

  return {
    async put(key, data) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const temp = join(dirname(target), `.tmp-${randomBytes(8).toString('hex')}`);
      const fh = await open(temp, 'wx');
      try {
        await fh.writeFile(data);
        await fh.sync();
      } finally {
        await fh.close();
      }
      try {
        await rename(temp, target);
      } catch (e) {
        await rm(temp, { force: true });
        throw e;
      }
    },

    async open(key) {
      let path: string;
      try {
        path = pathOf(key);
      } catch {
        return null;
      }
      try {
        const st = await stat(path);
        if (!st.isFile()) return null;
        return { stream: createReadStream(path), size: st.size };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },

    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
