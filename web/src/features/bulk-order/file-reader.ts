import type { ReadOptions, ReadReply, ReadRequest } from './read-file-protocol';

/**
 * Files picked by the user stay out of the store (actions stay plain data):
 * the page holds the file here and the saga takes it by id.
 */
const heldFiles = new Map<string, File>();
let counter = 0;

export function holdFile(file: File): string {
  counter += 1;
  const fileId = `file-${counter}`;
  heldFiles.set(fileId, file);
  return fileId;
}

export function takeFile(fileId: string): File | undefined {
  const file = heldFiles.get(fileId);
  heldFiles.delete(fileId);
  return file;
}

function readInWorker(request: ReadRequest): Promise<ReadReply> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./read-file.worker.ts', import.meta.url), { type: 'module' });
    const finish = (reply: ReadReply) => {
      worker.terminate();
      resolve(reply);
    };
    worker.onmessage = (event: MessageEvent<ReadReply>) => finish(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish({ ok: false, isFileError: false, message: event.message || 'The file reader stopped unexpectedly' });
    };
    worker.postMessage(request, [request.data]);
  });
}

async function readOnMainThread(request: ReadRequest): Promise<ReadReply> {
  const { OrderFileError, readOrderFile } = await import('@flatship/order-files');
  const { runRead } = await import('./read-file-protocol');
  return runRead(readOrderFile, (error) => error instanceof OrderFileError, request);
}

/** Reads an order file off the main thread where the browser allows it (tests run without workers). */
export async function readOrderFileOf(file: File, options: ReadOptions): Promise<ReadReply> {
  const data = await file.arrayBuffer();
  const request: ReadRequest = { name: file.name, data, options };
  return typeof Worker === 'undefined' ? readOnMainThread(request) : readInWorker(request);
}
