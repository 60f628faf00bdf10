import { assertSelfOrAdmin, requireAuth, type ServiceApp } from '@flatship/kit';
import {
  CreateScanFormBodySchema,
  CreateScanFormReplySchema,
  IdSchema,
  ScanFormsQuerySchema,
  ScanFormsReplySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import {
  createOrderScanForms,
  createTodayScanForms,
  getScanFormFile,
  listScanForms,
} from '../domain/scan-forms/scan-forms';
import type { DomainDeps } from './deps';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });
const OrderIdParamsSchema = Type.Object({ orderId: IdSchema });
const FormIdParamsSchema = Type.Object({ formId: Type.String() });

/**
 * SCAN forms: made for a bulk order's labels (Batch Orders) or for today's single labels (Orders), listed, and
 * downloaded. A `{userId}` must be the caller's own (or an admin's call); an order or form of someone else is 404.
 */
export function registerScanFormRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.get(
    '/api/orders/scan-forms/:userId',
    {
      onRequest: [app.requireUser],
      schema: {
        params: UserIdParamsSchema,
        querystring: ScanFormsQuerySchema,
        response: { 200: ScanFormsReplySchema },
      },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return listScanForms(deps, request.params.userId, request.query.timeZone);
    },
  );

  app.post(
    '/api/orders/scan-forms/bulk/:orderId',
    {
      onRequest: [app.requireUser],
      schema: {
        params: OrderIdParamsSchema,
        body: CreateScanFormBodySchema,
        response: { 200: CreateScanFormReplySchema },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const reply = await createOrderScanForms(deps, auth, request.params.orderId, request.body?.timeZone);
      request.log.info(
        { orderId: request.params.orderId, forms: reply.forms.length, created: reply.created, by: auth.userId },
        'bulk order SCAN form asked for',
      );
      return reply;
    },
  );

  app.post(
    '/api/orders/scan-forms/today/:userId',
    {
      onRequest: [app.requireUser],
      schema: {
        params: UserIdParamsSchema,
        body: CreateScanFormBodySchema,
        response: { 200: CreateScanFormReplySchema },
      },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      const reply = await createTodayScanForms(deps, request.params.userId, request.body?.timeZone);
      request.log.info(
        { userId: request.params.userId, forms: reply.forms.length, created: reply.created },
        'SCAN form for today asked for',
      );
      return reply;
    },
  );

  // Opened in a new tab through a download link (see download.ts): its token comes as `?token=`.
  app.get(
    '/api/orders/download/scan-form/:formId',
    { onRequest: [app.requireDownloader], schema: { params: FormIdParamsSchema } },
    async (request, reply) => {
      const { formId } = request.params;
      const file = await getScanFormFile(deps, requireAuth(request), formId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(file.size))
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'private, max-age=0, must-revalidate')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );
}
