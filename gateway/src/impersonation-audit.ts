import { randomUUID } from 'node:crypto';
import type { ImpersonationActionEvent } from '@flatship/proto';
import type { FastifyInstance } from 'fastify';
import { isEffectfulGet, pathOfUrl } from './route-table';

/** Sends `impersonation.action` (keyed by the user's id) to the admin service's audit. */
export type PublishImpersonationAction = (event: ImpersonationActionEvent) => Promise<void>;

/** Reads change nothing, except the GETs listed in the route table; everything else an admin does as a user is recorded. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Records every change made with a login-as token: the gateway sees every verified token, so this is the
 * one place that catches them all, whichever service answered. Sent once the answer is out (its status is
 * part of the record), so it never slows the admin down; a failed send is logged loudly. Each action gets an
 * id of its own here, which the audit keeps it under: two actions alike to the millisecond are two entries,
 * and a redelivered event is still one.
 */
export function recordImpersonatedChanges(
  app: Pick<FastifyInstance, 'addHook' | 'log'>,
  publish: PublishImpersonationAction,
  now: () => Date = () => new Date(),
): void {
  app.addHook('onResponse', async (request, reply) => {
    const adminId = request.auth?.impersonatorId;
    if (!adminId || !request.auth) return;
    // Without the query string: download tokens travel there.
    const path = pathOfUrl(request.url) ?? request.url.split('?')[0] ?? request.url;
    if (READS.has(request.method) && !isEffectfulGet(request.method, path)) return;
    const event: ImpersonationActionEvent = {
      id: randomUUID(),
      userId: request.auth.userId,
      adminId,
      method: request.method,
      path,
      status: reply.statusCode,
      at: now().toISOString(),
    };
    try {
      await publish(event);
    } catch (err) {
      request.log.error({ err, event }, 'a change made while signed in as a user could not be recorded in the audit');
    }
  });
}
