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

test('a file is read whole, and a missing file, a folder or a key outside the store reads as null', async () => {
  const { files } = await store();
  const pdf = Buffer.from('%PDF-1.3\n'.repeat(2000));
  await files.put('labels/user-1/a.pdf', pdf);
  expect((await files.read('labels/user-1/a.pdf'))?.equals(pdf)).toBe(true);
  expect(await files.read('labels/user-1/missing.pdf')).toBeNull();
  expect(await files.read('labels/user-1')).toBeNull();
  expect(await files.read('labels/../../etc/passwd')).toBeNull();
});

test('a put leaves only the finished file behind, with exactly the bytes given', async () => {
  const { root, files } = await store();
  const big = Buffer.alloc(3 * 1024 * 1024, 7);
  await files.put('bulk/user-1/order-1/labels.pdf', big);
  await files.put('bulk/user-1/order-1/labels.pdf', Buffer.from('replaced'));
  expect(await readdir(join(root, 'bulk/user-1/order-1'))).toEqual(['labels.pdf']);
  expect(await readFile(join(root, 'bulk/user-1/order-1/labels.pdf'), 'utf8')).toBe('replaced');
  await files.put('bulk/user-1/order-1/big.pdf', big);
  expect((await readFile(join(root, 'bulk/user-1/order-1/big.pdf'))).equals(big)).toBe(true);
});
