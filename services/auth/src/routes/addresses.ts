import { assertSelfOrAdmin, type ServiceApp } from '@flatship/kit';
import {
  AddressInputSchema,
  AddressResultSchema,
  DeleteAddressBodySchema,
  IdSchema,
  SavedAddressReplySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { deleteAddress } from '../domain/delete-address';
import { listAddresses } from '../domain/list-addresses';
import { MESSAGES } from '../domain/messages';
import { saveAddress } from '../domain/save-address';
import { updateAddress } from '../domain/update-address';
import type { DomainDeps } from './deps';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });
const AddressParamsSchema = Type.Object({ userId: IdSchema, addressRecordId: IdSchema });

/** The address book (spec doc 2 §7): every call names the user, who must be the caller unless an admin calls. */
export function registerAddressRoutes(app: ServiceApp, deps: DomainDeps): void {
  const onRequest = [app.requireUser];

  app.get(
    '/api/auth/get-address/:userId',
    { onRequest, schema: { params: UserIdParamsSchema, response: { 200: SavedAddressReplySchema } } },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return { savedAddress: await listAddresses(deps, request.params.userId) };
    },
  );

  app.post(
    '/api/auth/save-address/:userId',
    {
      onRequest,
      schema: { params: UserIdParamsSchema, body: AddressInputSchema, response: { 201: AddressResultSchema } },
    },
    async (request, reply) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      const address = await saveAddress(deps, request.params.userId, request.body);
      return reply.status(201).send({ message: MESSAGES.addressAdded, address });
    },
  );

  app.post(
    '/api/auth/delete-address/:userId',
    {
      onRequest,
      schema: { params: UserIdParamsSchema, body: DeleteAddressBodySchema, response: { 200: AddressResultSchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      await deleteAddress(deps, request.params.userId, request.body.id);
      return { message: MESSAGES.addressDeleted };
    },
  );

  app.post(
    '/api/auth/update-address/:userId/:addressRecordId',
    {
      onRequest,
      schema: { params: AddressParamsSchema, body: AddressInputSchema, response: { 200: AddressResultSchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      const { userId, addressRecordId } = request.params;
      return {
        message: MESSAGES.addressUpdated,
        address: await updateAddress(deps, userId, addressRecordId, request.body),
      };
    },
  );
}
