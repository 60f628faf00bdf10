import { AppError, assertSelfOrAdmin, requireAuth, type ServiceApp } from '@flatship/kit';
import {
  IdSchema,
  InvitedUsersReplySchema,
  ReferralApplyBodySchema,
  ReferralApplyReplySchema,
  ReferralCodeReplySchema,
} from '@flatship/proto';
import { Type } from 'typebox';
import { applyReferralCode } from '../domain/apply-referral-code';
import { getReferralCode } from '../domain/get-referral-code';
import { listInvitedUsers } from '../domain/list-invited-users';
import { MESSAGES } from '../domain/messages';
import type { DomainDeps } from './deps';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });

export function registerInviteRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.post(
    '/api/invite/referral/apply',
    {
      onRequest: [app.requireUser],
      schema: { body: ReferralApplyBodySchema, response: { 200: ReferralApplyReplySchema } },
    },
    async (request) => {
      const { token, user } = await applyReferralCode(deps, requireAuth(request).userId, request.body.referralCode);
      return { success: true, token, user, message: MESSAGES.referralApplied };
    },
  );

  app.get(
    '/api/invite/referral/:userId',
    {
      onRequest: [app.requireUser],
      schema: { params: UserIdParamsSchema, response: { 200: ReferralCodeReplySchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      return { referralCode: await getReferralCode(deps, request.params.userId) };
    },
  );

  app.get(
    '/api/invite/:userId',
    {
      onRequest: [app.requireUser],
      schema: { params: UserIdParamsSchema, response: { 200: InvitedUsersReplySchema } },
    },
    async (request) => {
      assertSelfOrAdmin(request.auth, request.params.userId);
      // The Invites page is for friends and admins (spec doc 1 §6); the server holds the same line.
      if (requireAuth(request).role === 'user') throw new AppError('FORBIDDEN', MESSAGES.invitesNotForRole);
      return { invitedUsers: await listInvitedUsers(deps, request.params.userId) };
    },
  );
}
