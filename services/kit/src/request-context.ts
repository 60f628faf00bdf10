import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** What follows one user action through every service: the request id of the call that started it. */
export interface RequestContext {
  requestId: string;
}

/** Set by the gateway (or the caller), carried on internal calls and as a header of the events a request records. */
export const REQUEST_ID_HEADER = 'x-request-id';

const storage = new AsyncLocalStorage<RequestContext>();

/** The request id of the HTTP request (or bus message) being handled here, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Headers for a bus message published now: the current request id, if any (the outbox adds it by itself). */
export function requestIdHeaders(): Record<string, string> {
  const requestId = currentRequestId();
  return requestId ? { [REQUEST_ID_HEADER]: requestId } : {};
}

/** Runs `fn` as part of the action `requestId` started: events it records and calls it makes carry that id. */
export function runWithRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return requestId ? storage.run({ requestId }, fn) : fn();
}

const resourceOf = new WeakMap<object, AsyncResource>();

/**
 * Makes each request's id current for its handler and everything it starts.
 * The store is entered in onRequest and re-entered before validation, because
 * the body arrives on socket events that do not carry the request's context.
 */
export function bindRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    storage.run({ requestId: request.id }, () => {
      resourceOf.set(request, new AsyncResource('flatship-request'));
      done();
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const resource = resourceOf.get(request);
    if (resource) resource.runInAsyncScope(done);
    else done();
  });
}
