import { AppError, requireInternal, type ServiceApp } from '@flatship/kit';
import { BulkProgressEventSchema, IdSchema } from '@flatship/proto';
import { Type } from 'typebox';
import { BULK_MESSAGES } from '../domain/bulk/bulk-messages';
import { progressOf } from '../domain/bulk/bulk-view';
import type { DomainDeps } from './deps';

/**
 * GET /internal/bulk-orders/:id — the gateway asks who owns an order before
 * letting a socket join its room, and sends the answer as the current state.
 */
export function registerInternalRoutes(app: ServiceApp, deps: DomainDeps, internalSecret: string): void {
  app.get(
    '/internal/bulk-orders/:id',
    {
      onRequest: [requireInternal(internalSecret)],
      schema: { params: Type.Object({ id: IdSchema }), response: { 200: BulkProgressEventSchema } },
    },
    async (request) => {
      const order = await deps.bulk.findById(request.params.id);
      if (!order) throw new AppError('NOT_FOUND', BULK_MESSAGES.notFound);
      return progressOf(order);
    },
  );
}
