import { AppError, assertSelfOrAdmin, requireAuth, type ServiceApp } from '@flatship/kit';
import {
  BatchOrdersReplySchema,
  BODY_LIMITS,
  BULK_FILE_TYPES,
  BULK_MAX_ROWS,
  BulkFilesReplySchema,
  type BulkFileType,
  BulkFixReplySchema,
  BulkForceRecoveryReplySchema,
  BulkInitBodySchema,
  BulkInitReplySchema,
  BulkProcessBodySchema,
  BulkProcessReplySchema,
  IdSchema,
  RetryReplySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { type BulkDownload, bulkFileAvailability, getBulkFile } from '../domain/bulk/bulk-file-access';
import { BULK_MESSAGES } from '../domain/bulk/bulk-messages';
import { forceRecoverBulkOrder } from '../domain/bulk/force-recover-bulk-order';
import { initBulkOrder } from '../domain/bulk/init-bulk-order';
import { listBulkOrders } from '../domain/bulk/list-bulk-orders';
import { processBulkOrder } from '../domain/bulk/process-bulk-order';
import { fixBulkOrder } from '../domain/bulk/resume-bulk-order';
import { retryFailed } from '../domain/bulk/retry-failed';
import type { DomainDeps } from './deps';
import { DownloadFormatQuerySchema, downloadFormatOf } from './download-format';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });
const OrderIdParamsSchema = Type.Object({ orderId: IdSchema });
const UserOrderParamsSchema = Type.Object({ userId: IdSchema, orderId: IdSchema });
const DownloadParamsSchema = Type.Object({ type: Type.String(), orderId: IdSchema });
/** When to ask again for a file being prepared in the background (seconds). */
const PREPARING_RETRY_AFTER_S = 2;

export function registerBulkRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.post(
    '/api/orders/bulk/init',
    { onRequest: [app.requireUser], schema: { body: BulkInitBodySchema, response: { 201: BulkInitReplySchema } } },
    async (request, reply) => {
      assertSelfOrAdmin(request.auth, request.body.userId);
      return reply.status(201).send(await initBulkOrder(deps, request.body.userId));
    },
  );

  app.post(
    '/api/orders/bulk/process/:userId',
    {
      onRequest: [app.requireUser],
      // A full bulk order; the gateway allows the same.
      bodyLimit: BODY_LIMITS.bulkProcess,
      schema: { params: UserIdParamsSchema, body: BulkProcessBodySchema, response: { 202: BulkProcessReplySchema } },
    },
    async (request, reply) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      if (request.body.orderData.length > BULK_MAX_ROWS) {
        throw new AppError('ORDERS_INVALID', BULK_MESSAGES.tooManyRows(BULK_MAX_ROWS));
      }
      const result = await processBulkOrder(deps, { userId: request.params.userId, body: request.body });
      request.log.info(
        { orderId: result.data.orderId, rows: result.data.totalCount, by: requireAuth(request).userId },
        'bulk order accepted',
      );
      return reply.status(202).send(result);
    },
  );

  app.get(
    '/api/orders/bulk/:userId',
    { onRequest: [app.requireUser], schema: { params: UserIdParamsSchema, response: { 200: BatchOrdersReplySchema } } },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return { bulkOrders: await listBulkOrders(deps, request.params.userId) };
    },
  );

  app.post(
    '/api/orders/bulk/retry-failed/:orderId',
    { onRequest: [app.requireUser], schema: { params: OrderIdParamsSchema, response: { 200: RetryReplySchema } } },
    async (request) => retryFailed(deps, requireAuth(request), request.params.orderId, { waitMs: deps.retryWaitMs }),
  );

  app.post(
    '/api/orders/bulk/fix/:orderId',
    { onRequest: [app.requireUser], schema: { params: OrderIdParamsSchema, response: { 200: BulkFixReplySchema } } },
    async (request) => fixBulkOrder(deps, requireAuth(request), request.params.orderId),
  );

  app.post(
    '/api/orders/bulk/force-recovery/:userId/:orderId',
    {
      onRequest: [app.requireUser],
      schema: { params: UserOrderParamsSchema, response: { 200: BulkForceRecoveryReplySchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      const auth = requireAuth(request);
      const result = await forceRecoverBulkOrder(deps, auth, request.params.userId, request.params.orderId);
      request.log.info({ orderId: request.params.orderId, status: result.status, by: auth.userId }, 'force recovery');
      return result;
    },
  );

  app.get(
    '/api/orders/bulk/files/:orderId',
    { onRequest: [app.requireUser], schema: { params: OrderIdParamsSchema, response: { 200: BulkFilesReplySchema } } },
    async (request) => bulkFileAvailability(deps, requireAuth(request), request.params.orderId),
  );

  // Download links open without script, so their download token comes as `?token=` (see download.ts).
  app.get(
    '/api/orders/download/:type/:orderId',
    {
      onRequest: [app.requireDownloader],
      schema: { params: DownloadParamsSchema, querystring: DownloadFormatQuerySchema },
    },
    async (request, reply) => {
      const type = request.params.type as BulkFileType;
      if (!BULK_FILE_TYPES.includes(type)) throw new AppError('FILE_NOT_FOUND', BULK_MESSAGES.fileNotFound);
      const auth = requireAuth(request);
      // The merged labels come in the caller's print format; the other files are what they are.
      const format = type === 'pdf' ? await downloadFormatOf(deps, auth, request.query) : undefined;
      let file: BulkDownload;
      try {
        file = await getBulkFile(deps, auth, type, request.params.orderId, format);
      } catch (e) {
        // Another of the caller's files is being prepared: asked again once it may be done.
        if (!(e instanceof AppError) || e.code !== 'RATE_LIMITED') throw e;
        return reply
          .status(429)
          .header('retry-after', String(PREPARING_RETRY_AFTER_S))
          .send({ code: e.code, message: e.message });
      }
      if (!file.ready) {
        if (!file.preparing) return reply.status(202).send({ message: file.message });
        // Being made in the background: asked again shortly, and the answer says how far it got.
        return reply
          .status(202)
          .header('retry-after', String(PREPARING_RETRY_AFTER_S))
          .header('cache-control', 'no-store')
          .send({ status: 'preparing', ...file.preparing, message: file.message });
      }
      if (file.size !== undefined) reply.header('content-length', String(file.size));
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('access-control-expose-headers', 'Content-Disposition')
        .header('cache-control', 'private, max-age=0, must-revalidate')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );
}
