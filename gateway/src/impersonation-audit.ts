import type { ImpersonationActionEvent } from '@flatship/proto';
import type { FastifyInstance } from 'fastify';
import { pathOfUrl } from './route-table';

/** Sends `impersonation.action` (keyed by the user's id) to the admin service's audit. */
export type PublishImpersonationAction = (event: ImpersonationActionEvent) => Promise<void>;

/** Reads change nothing; everything else an admin does as a user is recorded. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Records every change made with a login-as token: the gateway sees every verified token, so this is the
 * one place that catches them all, whichever service answered. Sent once the answer is out (its status is
 * part of the record), so it never slows the admin down; a failed send is logged loudly.
 */
export function recordImpersonatedChanges(
  app: Pick<FastifyInstance, 'addHook' | 'log'>,
  publish: PublishImpersonationAction,
): void {
  app.addHook('onResponse', async (request, reply) => {
    const adminId = request.auth?.impersonatorId;
    if (!adminId || !request.auth || READS.has(request.method)) return;
    const event: ImpersonationActionEvent = {
      userId: request.auth.userId,
      adminId,
      method: request.method,
      // Without the query string: download tokens travel there.
      path: pathOfUrl(request.url) ?? request.url.split('?')[0] ?? request.url,
      status: reply.statusCode,
      at: new Date().toISOString(),
    };
    try {
      await publish(event);
    } catch (err) {
      request.log.error({ err, event }, 'a change made while signed in as a user could not be recorded in the audit');
    }
  });
}
