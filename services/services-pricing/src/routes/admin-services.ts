import { AppError, type ServiceApp } from '@flatship/kit';
import {
  ConfiguredServiceSchema,
  IdSchema,
  RawServiceSchema,
  RenameServiceBodySchema,
  ServiceChangeReplySchema,
  ToggleServiceBodySchema,
  UpdatePricesBodySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { listDefaultServices } from '../domain/list-default-services';
import { listRawServices } from '../domain/list-raw-services';
import { MESSAGES } from '../domain/messages';
import { renameDefaultService } from '../domain/rename-default-service';
import { syncServices } from '../domain/sync-services';
import { toggleDefaultService } from '../domain/toggle-default-service';
import { updateDefaultPrices } from '../domain/update-default-prices';
import type { DomainDeps } from './deps';
import { toConfiguredService, toRawService } from './wire';

const IdParamsSchema = Type.Object({ id: IdSchema });
const ServiceListSchema = Type.Array(ConfiguredServiceSchema);

/** Raw carrier services and the default service configuration (spec doc 3 §2, §7). Admins only. */
export function registerAdminServiceRoutes(app: ServiceApp, deps: DomainDeps): void {
  const onRequest = [app.requireAdmin];

  app.get('/api/rawServices', { onRequest, schema: { response: { 200: Type.Array(RawServiceSchema) } } }, async () =>
    (await listRawServices(deps)).map(toRawService),
  );

  app.get('/api/defaultServices', { onRequest, schema: { response: { 200: ServiceListSchema } } }, async () =>
    (await listDefaultServices(deps)).map(toConfiguredService),
  );

  // The spec answers with the list itself, which replaces the one on screen; the client shows the toast.
  // The client sends this call with an empty body but `Content-Type: application/json` (spec doc 3 §7),
  // which Fastify refuses by default; the call takes no input, so only this route reads such a body as none.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      const text = body as string;
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new AppError('BAD_JSON', 'The request body is not valid JSON'), undefined);
      }
    });
    scope.post('/api/defaultServices/sync', { onRequest, schema: { response: { 200: ServiceListSchema } } }, async () =>
      (await syncServices(deps)).map(toConfiguredService),
    );
  });

  app.patch(
    '/api/defaultServices/:id/toggle',
    {
      onRequest,
      schema: { params: IdParamsSchema, body: ToggleServiceBodySchema, response: { 200: ServiceChangeReplySchema } },
    },
    async (request) => {
      const service = await toggleDefaultService(deps, request.params.id, request.body.enabled);
      return {
        message: service.enabled ? MESSAGES.enabled : MESSAGES.disabled,
        service: toConfiguredService(service),
      };
    },
  );

  app.put(
    '/api/defaultServices/:id/prices',
    {
      onRequest,
      schema: { params: IdParamsSchema, body: UpdatePricesBodySchema, response: { 200: ServiceChangeReplySchema } },
    },
    async (request) => ({
      message: MESSAGES.pricesUpdated,
      service: toConfiguredService(await updateDefaultPrices(deps, request.params.id, request.body.prices)),
    }),
  );

  app.put(
    '/api/defaultServices/:id/name',
    {
      onRequest,
      schema: { params: IdParamsSchema, body: RenameServiceBodySchema, response: { 200: ServiceChangeReplySchema } },
    },
    async (request) => ({
      message: MESSAGES.nameUpdated,
      service: toConfiguredService(await renameDefaultService(deps, request.params.id, request.body.name)),
    }),
  );
}
