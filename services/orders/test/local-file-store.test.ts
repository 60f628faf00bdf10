import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createLocalFileStore } from '../src/adapters/local-file-store';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

async function store() {
  const root = await mkdtemp(join(tmpdir(), 'files-'));
  roots.push(root);
  return { root, files: createLocalFileStore(root) };
}

test('a file goes into a folder made on its first put, and again after the folder was removed', async () => {
  const { root, files } = await store();
  await files.put('labels/user-1/a.pdf', Buffer.from('first'));
  await files.put('labels/user-1/b.pdf', Buffer.from('second'));
  expect(await readFile(join(root, 'labels/user-1/a.pdf'), 'utf8')).toBe('first');
  expect((await readdir(join(root, 'labels/user-1'))).sort()).toEqual(['a.pdf', 'b.pdf']);

  await rm(join(root, 'labels'), { recursive: true });
  await files.put('labels/user-1/c.pdf', Buffer.from('third'));
  const opened = await files.open('labels/user-1/c.pdf');
  if (!opened) throw new Error('c.pdf is not in the store');
  expect(opened.size).toBe(5);
  (opened.stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
  expect(await readdir(join(root, 'labels/user-1'))).toEqual(['c.pdf']);
});

test('a key that leaves the store is refused, and nothing is written', async () => {
  const { root, files } = await store();
  await expect(files.put('labels/../../escape.pdf', Buffer.from('x'))).rejects.toThrow('invalid file key');
  expect(await readdir(root)).toEqual([]);
});
