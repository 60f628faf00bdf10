import { randomBytes } from 'node:crypto';
import { close, createReadStream, fsync, open, write } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { FileStore } from '../domain/ports';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Creates `path` (which must not exist) with `data`, synced to the disk before it resolves. Plain callbacks rather
 * than a FileHandle: a bulk order writes a file per label, and the handle's promises and finaliser cost more CPU
 * than the writing itself.
 */
function writeNewSynced(path: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    open(path, 'wx', (openErr, fd) => {
      if (openErr) return reject(openErr);
      const finish = (err: Error | null) =>
        close(fd, (closeErr) => ((err ?? closeErr) ? reject(err ?? closeErr) : resolve()));
      const writeFrom = (offset: number) => {
        write(fd, data, offset, data.length - offset, null, (writeErr, written) => {
          if (writeErr) return finish(writeErr);
          if (offset + written < data.length) return writeFrom(offset + written);
          fsync(fd, finish);
        });
      };
      writeFrom(0);
    });
  });
}

/**
 * Files on a local disk under `root` (FILES_DIR). Keys are checked segment by
 * segment, so no key can name a file outside the root. Writes go to a
 * temporary name in the same folder and are renamed into place once synced:
 * a reader sees the whole file or none.
 */
export function createLocalFileStore(root: string): FileStore {
  const base = resolve(root);
  // Temporary names: random per store, then counted, so two stores (processes) never pick the same one and a
  // write costs no call for random bytes.
  const tempPrefix = randomBytes(8).toString('hex');
  let tempCount = 0;
  const pathOf = (key: string): string => {
    const parts = key.split('/');
    if (parts.length === 0 || !parts.every((p) => SEGMENT.test(p) && !p.includes('..'))) {
      throw new Error(`invalid file key ${JSON.stringify(key)}`);
    }
    const full = join(base, ...parts);
    if (!full.startsWith(base + sep)) throw new Error(`file key escapes the store: ${key}`);
    return full;
  };
  /** A key's path for reading: a key that cannot name a file in the store names no file at all. */
  const readablePathOf = (key: string): string | null => {
    try {
      return pathOf(key);
    } catch {
      return null;
    }
  };

  return {
    async put(key, data) {
      const target = pathOf(key);
      const dir = dirname(target);
      const temp = join(dir, `.tmp-${tempPrefix}-${(tempCount++).toString(36)}`);
      try {
        await writeNewSynced(temp, data);
      } catch (e) {
        // The folder is made the first time a file goes into it (a user's first label, an order's first file).
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
          await rm(temp, { force: true });
          throw e;
        }
        await mkdir(dir, { recursive: true });
        await writeNewSynced(temp, data).catch(async (again: unknown) => {
          await rm(temp, { force: true });
          throw again;
        });
      }
      try {
        await rename(temp, target);
      } catch (e) {
        await rm(temp, { force: true });
        throw e;
      }
    },

    async open(key) {
      const path = readablePathOf(key);
      if (path === null) return null;
      try {
        const st = await stat(path);
        if (!st.isFile()) return null;
        return { stream: createReadStream(path), size: st.size };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },

    async read(key) {
      const path = readablePathOf(key);
      if (path === null) return null;
      try {
        return await readFile(path);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR') return null;
        throw e;
      }
    },

    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
