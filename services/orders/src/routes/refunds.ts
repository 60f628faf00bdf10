import { requireAuth, type ServiceApp } from '@flatship/kit';
import {
  BatchLabelsReplySchema,
  BatchRefundBodySchema,
  BatchRefundReplySchema,
  IdSchema,
  RefundLabelReplySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { actorOf, listBatchLabels, refundLabel, requestBatchRefund } from '../domain/refunds';
import type { DomainDeps } from './deps';

const LabelIdParamsSchema = Type.Object({ labelId: IdSchema });
const OrderIdParamsSchema = Type.Object({ orderId: IdSchema });

/**
 * Refunds of unused labels, asked by their owner (or an admin): one label from Orders, one or every unused label of
 * a batch from Batch Orders and the progress window. Whose label or order it is, is checked in the domain: anyone
 * else is told it does not exist.
 */
export function registerRefundRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.post(
    '/api/orders/labels/:labelId/refund',
    {
      onRequest: [app.requireUser],
      schema: { params: LabelIdParamsSchema, response: { 200: RefundLabelReplySchema } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { reply } = await refundLabel(deps, actorOf(auth), request.params.labelId);
      request.log.info(
        { labelId: reply.labelId, refund: reply.refundStatus, by: auth.impersonatorId ?? auth.userId },
        'label refund requested',
      );
      return reply;
    },
  );

  app.get(
    '/api/orders/bulk/labels/:orderId',
    {
      onRequest: [app.requireUser],
      schema: { params: OrderIdParamsSchema, response: { 200: BatchLabelsReplySchema } },
    },
    async (request) => listBatchLabels(deps, requireAuth(request), request.params.orderId),
  );

  app.post(
    '/api/orders/bulk/refund/:orderId',
    {
      onRequest: [app.requireUser],
      schema: { params: OrderIdParamsSchema, body: BatchRefundBodySchema, response: { 200: BatchRefundReplySchema } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const reply = await requestBatchRefund(deps, auth, request.params.orderId, request.body.labelIds);
      request.log.info(
        { orderId: request.params.orderId, ...reply, message: undefined, by: auth.impersonatorId ?? auth.userId },
        'batch refund requested',
      );
      return reply;
    },
  );
}
