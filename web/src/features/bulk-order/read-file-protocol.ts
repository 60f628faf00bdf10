import type { readOrderFile } from '@flatship/order-files';

export type ReadOptions = Parameters<typeof readOrderFile>[1];
export type ReadResult = Awaited<ReturnType<typeof readOrderFile>>;

export interface ReadRequest {
  name: string;
  data: ArrayBuffer;
  options: ReadOptions;
}

/** `isFileError`: the reader refused the file's content (its message says why), as opposed to a crash. */
export type ReadReply = { ok: true; result: ReadResult } | { ok: false; isFileError: boolean; message: string };

/** Runs the reader and turns a throw into a reply, the same way in the worker and on the main thread. */
export async function runRead(
  reader: typeof readOrderFile,
  isFileError: (error: unknown) => boolean,
  request: ReadRequest,
): Promise<ReadReply> {
  try {
    const result = await reader({ name: request.name, data: request.data }, request.options);
    return { ok: true, result };
  } catch (error) {
    return {
      ok: false,
      isFileError: isFileError(error),
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
