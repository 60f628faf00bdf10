import { requireInternal, type ServiceApp } from '@flatship/kit';
import {
  IdSchema,
  InternalResetLinkReplySchema,
  InternalUserSchema,
  LoginAsTokenBodySchema,
  LoginAsTokenReplySchema,
  ReferralStandingSchema,
  SetActivationBodySchema,
  SetReferralCodeBodySchema,
  SetRoleBodySchema,
  TokenStateSchema,
  UsersExportQuerySchema,
  UsersExportReplySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { changeActivation } from '../domain/change-activation';
import { changeRole } from '../domain/change-role';
import { deleteUser } from '../domain/delete-user';
import { getReferralStanding } from '../domain/get-referral-standing';
import { getTokenState } from '../domain/get-token-state';
import { getUser } from '../domain/get-user';
import { issueLoginAsToken } from '../domain/issue-login-as-token';
import { issueResetLink } from '../domain/issue-reset-link';
import { toExportedUser } from '../domain/session-user';
import { setReferralCode } from '../domain/set-referral-code';
import type { DomainDeps } from './deps';

const IdParamsSchema = Type.Object({ id: IdSchema });

/** Calls from other services (admin, gateway), guarded by the shared secret; never routed by the gateway. */
export function registerInternalRoutes(app: ServiceApp, deps: DomainDeps, internalSecret: string): void {
  const onRequest = [requireInternal(internalSecret)];

  app.get(
    '/internal/users/:id/token-state',
    { onRequest, schema: { params: IdParamsSchema, response: { 200: TokenStateSchema } } },
    (request) => getTokenState(deps, request.params.id),
  );

  app.get(
    '/internal/users/:id',
    { onRequest, schema: { params: IdParamsSchema, response: { 200: InternalUserSchema } } },
    (request) => getUser(deps, request.params.id),
  );

  // Payments asks before it pays a referral bonus.
  app.get(
    '/internal/users/:id/referral',
    { onRequest, schema: { params: IdParamsSchema, response: { 200: ReferralStandingSchema } } },
    (request) => getReferralStanding(deps, request.params.id),
  );

  app.post(
    '/internal/users/:id/activation',
    {
      onRequest,
      schema: { params: IdParamsSchema, body: SetActivationBodySchema, response: { 200: InternalUserSchema } },
    },
    (request) => changeActivation(deps, request.params.id, request.body.activation),
  );

  app.post(
    '/internal/users/:id/role',
    { onRequest, schema: { params: IdParamsSchema, body: SetRoleBodySchema, response: { 200: InternalUserSchema } } },
    (request) => changeRole(deps, request.params.id, request.body.user_role),
  );

  app.post(
    '/internal/users/:id/referral-code',
    {
      onRequest,
      schema: { params: IdParamsSchema, body: SetReferralCodeBodySchema, response: { 200: InternalUserSchema } },
    },
    (request) => setReferralCode(deps, request.params.id, request.body.referralCode),
  );

  // Before '/internal/users/:id', which would otherwise read "export" as an id.
  app.get(
    '/internal/users/export',
    { onRequest, schema: { querystring: UsersExportQuerySchema, response: { 200: UsersExportReplySchema } } },
    async (request) => {
      const page = await deps.users.exportPage(request.query.after, request.query.limit ?? 1000);
      return { users: page.map(toExportedUser) };
    },
  );

  app.delete('/internal/users/:id', { onRequest, schema: { params: IdParamsSchema } }, async (request, reply) => {
    await deleteUser(deps, request.params.id);
    return reply.status(204).send();
  });

  app.post(
    '/internal/users/:id/login-as-token',
    {
      onRequest,
      schema: { params: IdParamsSchema, body: LoginAsTokenBodySchema, response: { 200: LoginAsTokenReplySchema } },
    },
    (request) => issueLoginAsToken(deps, request.params.id, request.body.adminId),
  );

  // The admin service asks for this when an admin issues a reset link from user management.
  app.post(
    '/internal/users/:id/reset-link',
    { onRequest, schema: { params: IdParamsSchema, response: { 200: InternalResetLinkReplySchema } } },
    (request) => issueResetLink(deps, request.params.id),
  );
}
