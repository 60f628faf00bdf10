import { requireInternal, type ServiceApp } from '@flatship/kit';
import {
  IdSchema,
  InternalResetLinkReplySchema,
  InternalUserSchema,
  SetActivationBodySchema,
  SetReferralCodeBodySchema,
  SetRoleBodySchema,
  TokenStateSchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { changeActivation } from '../domain/change-activation';
import { changeRole } from '../domain/change-role';
import { getTokenState } from '../domain/get-token-state';
import { getUser } from '../domain/get-user';
import { issueResetLink } from '../domain/issue-reset-link';
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

  // The admin service asks for this when an admin issues a reset link from user management.
  app.post(
    '/internal/users/:id/reset-link',
    { onRequest, schema: { params: IdParamsSchema, response: { 200: InternalResetLinkReplySchema } } },
    (request) => issueResetLink(deps, request.params.id),
  );
}
