import { assertSelfOrAdmin, type ServiceApp } from '@flatship/kit';
import {
  AddSkuBodySchema,
  AddSkuReplySchema,
  BODY_LIMITS,
  IdSchema,
  SkuDataReplySchema,
  SkuResultSchema,
  UpdateSkuBodySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { addSkus } from '../domain/add-skus';
import { deleteSku } from '../domain/delete-sku';
import { listSkus } from '../domain/list-skus';
import { SKU_MESSAGES } from '../domain/sku-messages';
import { updateSku } from '../domain/update-sku';
import type { DomainDeps } from './deps';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });
const UpdateSkuParamsSchema = Type.Object({ userId: IdSchema, skuId: IdSchema });
const SkuIdParamsSchema = Type.Object({ skuId: IdSchema });

/** SKU presets (spec doc 2 §7). The user named in a path must be the caller unless an admin calls. */
export function registerSkuRoutes(app: ServiceApp, deps: DomainDeps): void {
  const onRequest = [app.requireUser];

  app.get(
    '/api/auth/get-sku/:userId',
    { onRequest, schema: { params: UserIdParamsSchema, response: { 200: SkuDataReplySchema } } },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return { SkuData: await listSkus(deps, request.params.userId) };
    },
  );

  app.post(
    '/api/auth/add-sku/:userId',
    {
      onRequest,
      // A CSV of the most SKUs one call may carry is well over the default; the gateway allows the same.
      bodyLimit: BODY_LIMITS.addSku,
      schema: { params: UserIdParamsSchema, body: AddSkuBodySchema, response: { 200: AddSkuReplySchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      const body = request.body;
      const rows = Array.isArray(body) ? body : body.parsedData;
      const upsert = !Array.isArray(body) && body.upsert === true;
      const SkuData = await addSkus(deps, request.params.userId, rows, { upsert });
      return { message: SKU_MESSAGES.added, SkuData };
    },
  );

  app.post(
    '/api/auth/update-sku/:userId/:skuId',
    {
      onRequest,
      schema: { params: UpdateSkuParamsSchema, body: UpdateSkuBodySchema, response: { 200: SkuResultSchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      const { skuData, ...topLevel } = request.body;
      const sku = await updateSku(deps, request.params.userId, request.params.skuId, skuData ?? topLevel);
      return { message: SKU_MESSAGES.updated, sku };
    },
  );

  app.post(
    '/api/auth/delete-sku/:skuId',
    { onRequest, schema: { params: SkuIdParamsSchema, response: { 200: SkuResultSchema } } },
    async (request) => {
      const caller = assertSelfOrAdmin(request.auth, request.auth?.userId ?? '');
      await deleteSku(deps, caller, request.params.skuId);
      return { message: SKU_MESSAGES.deleted };
    },
  );
}
