import { serverMessage } from '../app/server-message';

/**
 * The editable table and the form dialog await their save/delete/submit
 * callbacks, while the I/O runs in a saga. A screen bridges the two with a
 * pending request: it dispatches an action carrying `requestId` (plain data,
 * so actions stay serialisable), returns `promise` to the component, and the
 * saga settles it with the outcome once the server has answered.
 */

export interface RequestOutcome {
  ok: boolean;
  /** Text to show with the outcome: the server's message, or the screen's fallback. */
  message?: string;
}

/** Thrown by a pending request that settled with `ok: false`. */
export class RequestFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestFailedError';
  }
}

/**
 * What a failed save, delete or submit has to say: a pending request's message
 * (the saga put the server's words or the screen's text in it), or the server's
 * own words when the call was made directly; undefined when there are none.
 */
export function failureText(error: unknown): string | undefined {
  if (error instanceof RequestFailedError) return error.message || undefined;
  return serverMessage(error);
}

const pending = new Map<string, (outcome: RequestOutcome) => void>();
let counter = 0;

/** A new request id and the promise its saga will settle: resolves with the message on success, rejects otherwise. */
export function createPendingRequest(): { requestId: string; promise: Promise<string | undefined> } {
  counter += 1;
  const requestId = `request-${counter}`;
  const promise = new Promise<string | undefined>((resolve, reject) => {
    pending.set(requestId, (outcome) => {
      if (outcome.ok) resolve(outcome.message);
      else reject(new RequestFailedError(outcome.message ?? ''));
    });
  });
  return { requestId, promise };
}

/** Settles the request once; unknown or already settled ids are ignored (the screen may have gone). */
export function settlePendingRequest(requestId: string | undefined, outcome: RequestOutcome): void {
  if (!requestId) return;
  const settle = pending.get(requestId);
  pending.delete(requestId);
  settle?.(outcome);
}
