import { assertSelfOrAdmin, type ServiceApp } from '@flatship/kit';
import {
  AvailableServiceSchema,
  ConfiguredServiceSchema,
  IdSchema,
  InitializeUserServicesReplySchema,
  ServiceChangeReplySchema,
  ToggleServiceBodySchema,
  UpdatePricesBodySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { initializeUserServices } from '../domain/initialize-user-services';
import { listAvailableServices } from '../domain/list-available-services';
import { listUserServices } from '../domain/list-user-services';
import { MESSAGES } from '../domain/messages';
import { toggleUserService } from '../domain/toggle-user-service';
import { updateUserPrices } from '../domain/update-user-prices';
import type { DomainDeps } from './deps';
import { toAvailableService, toConfiguredService } from './wire';

const UserParamsSchema = Type.Object({ userId: IdSchema });
const UserServiceParamsSchema = Type.Object({ userId: IdSchema, serviceId: Type.String() });

/** A user's services: what they can buy (self or admin), and their per-user configuration (admins). */
export function registerUserServiceRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.get(
    '/api/userServices/:userId/available',
    {
      onRequest: [app.requireUser],
      schema: { params: UserParamsSchema, response: { 200: Type.Array(AvailableServiceSchema) } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return (await listAvailableServices(deps, request.params.userId)).map(toAvailableService);
    },
  );

  const onRequest = [app.requireAdmin];

  app.get(
    '/api/userServices/:userId',
    { onRequest, schema: { params: UserParamsSchema, response: { 200: Type.Array(ConfiguredServiceSchema) } } },
    async (request) => (await listUserServices(deps, request.params.userId)).map(toConfiguredService),
  );

  app.post(
    '/api/userServices/:userId/initialize',
    { onRequest, schema: { params: UserParamsSchema, response: { 200: InitializeUserServicesReplySchema } } },
    async (request) => ({
      message: MESSAGES.initialized,
      services: (await initializeUserServices(deps, request.params.userId)).map(toConfiguredService),
    }),
  );

  app.put(
    '/api/userServices/:userId/:serviceId/prices',
    {
      onRequest,
      schema: {
        params: UserServiceParamsSchema,
        body: UpdatePricesBodySchema,
        response: { 200: ServiceChangeReplySchema },
      },
    },
    async (request) => {
      const { userId, serviceId } = request.params;
      const service = await updateUserPrices(deps, userId, serviceId, request.body.prices);
      return { message: MESSAGES.pricesUpdated, service: toConfiguredService(service) };
    },
  );

  app.patch(
    '/api/userServices/:userId/:serviceId/toggle',
    {
      onRequest,
      schema: {
        params: UserServiceParamsSchema,
        body: ToggleServiceBodySchema,
        response: { 200: ServiceChangeReplySchema },
      },
    },
    async (request) => {
      const { userId, serviceId } = request.params;
      const service = await toggleUserService(deps, userId, serviceId, request.body.enabled);
      return {
        message: service.enabled ? MESSAGES.enabled : MESSAGES.disabled,
        service: toConfiguredService(service),
      };
    },
  );
}
