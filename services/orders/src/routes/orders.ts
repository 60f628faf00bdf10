import { AppError, assertSelfOrAdmin, requireAuth, type ServiceApp } from '@flatship/kit';
import {
  IdSchema,
  isTrackingStage,
  OrderCreateBodySchema,
  OrderCreateReplySchema,
  OrdersQuerySchema,
  OrdersReplySchema,
  RecentOrdersReplySchema,
  TotalOrdersReplySchema,
  TRACKING_MESSAGES,
} from '@flatship/proto';
import { Type } from 'typebox';
import { createLabel } from '../domain/create-label';
import { countOrders, listOrders, listRecentOrders } from '../domain/list-orders';
import { MESSAGES } from '../domain/messages';
import type { DomainDeps } from './deps';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });
const IdempotencyHeadersSchema = Type.Object({ 'idempotency-key': Type.Optional(Type.String()) });
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export function registerOrderRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.post(
    '/api/orders/v2',
    {
      onRequest: [app.requireUser],
      schema: {
        body: OrderCreateBodySchema,
        headers: IdempotencyHeadersSchema,
        response: { 201: OrderCreateReplySchema },
      },
    },
    async (request, reply) => {
      const { user_id: userId } = request.body;
      assertSelfOrAdmin(request.auth, userId);
      const key = request.headers['idempotency-key'];
      if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
        throw new AppError('BAD_REQUEST', MESSAGES.badIdempotencyKey);
      }
      const result = await createLabel(deps, { userId, body: request.body, idempotencyKey: key ?? null });
      request.log.info({ labelId: result.data.orderId, by: requireAuth(request).userId }, 'label created');
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/orders/recent/:userId',
    {
      onRequest: [app.requireUser],
      schema: { params: UserIdParamsSchema, response: { 200: RecentOrdersReplySchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return { recentOrders: await listRecentOrders(deps, request.params.userId) };
    },
  );

  app.get(
    '/api/orders/total/:userId',
    { onRequest: [app.requireUser], schema: { params: UserIdParamsSchema, response: { 200: TotalOrdersReplySchema } } },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return { totalOrders: await countOrders(deps, request.params.userId) };
    },
  );

  app.get(
    '/api/orders/:userId',
    {
      onRequest: [app.requireUser],
      schema: { params: UserIdParamsSchema, querystring: OrdersQuerySchema, response: { 200: OrdersReplySchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      const { tracking } = request.query;
      if (tracking !== undefined && !isTrackingStage(tracking)) {
        throw new AppError('BAD_REQUEST', TRACKING_MESSAGES.badFilter(tracking));
      }
      return { orders: await listOrders(deps, request.params.userId, { tracking }) };
    },
  );
}
