import { requireAuth, type ServiceApp } from '@flatship/kit';
import {
  AdminBulkOrdersQuerySchema,
  AdminBulkOrdersReplySchema,
  AdminLabelsQuerySchema,
  AdminLabelsReplySchema,
  AdminRefundLabelReplySchema,
  IdSchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { type AdminOrdersDeps, listAdminBulkOrders, listAdminLabels, refundLabelAsAdmin } from '../domain/admin-orders';

const IdParamsSchema = Type.Object({ id: IdSchema });

/**
 * Order label management, admins only: every user's labels (a bulk order's rows are its labels) and bulk
 * orders, and refunding a label that was never used. Downloads use the ordinary links, which admins may open.
 */
export function registerAdminOrderRoutes(app: ServiceApp, deps: AdminOrdersDeps): void {
  app.get(
    '/api/orders/admin/labels',
    {
      onRequest: [app.requireAdmin],
      schema: { querystring: AdminLabelsQuerySchema, response: { 200: AdminLabelsReplySchema } },
    },
    async (request) => listAdminLabels(deps, request.query),
  );

  app.get(
    '/api/orders/admin/bulk-orders',
    {
      onRequest: [app.requireAdmin],
      schema: { querystring: AdminBulkOrdersQuerySchema, response: { 200: AdminBulkOrdersReplySchema } },
    },
    async (request) => listAdminBulkOrders(deps, request.query),
  );

  app.post(
    '/api/orders/admin/labels/:id/refund',
    {
      onRequest: [app.requireAdmin],
      schema: { params: IdParamsSchema, response: { 200: AdminRefundLabelReplySchema } },
    },
    async (request) => refundLabelAsAdmin(deps, requireAuth(request), request.params.id),
  );
}
