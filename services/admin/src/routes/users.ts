import { AppError, requireAuth, type ServiceApp } from '@flatship/kit';
import { IdSchema, ResetLinkReplySchema, UserDetailsBodySchema, UserDetailsReplySchema } from '@flatship/proto';
import { Type } from 'typebox';
import { issueResetLink } from '../domain/issue-reset-link';
import { MESSAGES } from '../domain/messages';
import { type UpdateUserDetailsDeps, updateUserDetails } from '../domain/update-user-details';

const IdParamsSchema = Type.Object({ id: IdSchema });
const IDEMPOTENCY_KEY_MAX = 150;

/** Admin user management (spec doc 3 §2, §7). The paths sit under /api/auth/users, which the gateway routes here. */
export function registerUserRoutes(app: ServiceApp, deps: UpdateUserDetailsDeps): void {
  app.post(
    '/api/auth/users/details/:id',
    {
      onRequest: [app.requireAdmin],
      schema: { params: IdParamsSchema, body: UserDetailsBodySchema, response: { 200: UserDetailsReplySchema } },
    },
    async (request) => {
      const header = request.headers['idempotency-key'];
      const clientKey = typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
      if (clientKey && clientKey.length > IDEMPOTENCY_KEY_MAX) {
        throw new AppError('VALIDATION_FAILED', MESSAGES.idempotencyKeyTooLong);
      }
      const admin = requireAuth(request);
      return updateUserDetails(
        deps,
        {
          userId: request.params.id,
          // The admin acting, also when signed in as someone else: the ledger names who set the figure.
          adminId: admin.impersonatorId ?? admin.userId,
          body: request.body,
          // Scoped by admin, so two admins' client keys can never collide.
          idempotencyKey: clientKey ? `admin-balance:${admin.userId}:${clientKey}` : `admin-balance:${request.id}`,
        },
        { requestId: request.id },
      );
    },
  );

  app.post(
    '/api/auth/users/:id/reset-link',
    {
      onRequest: [app.requireAdmin],
      schema: { params: IdParamsSchema, response: { 200: ResetLinkReplySchema } },
    },
    (request) => issueResetLink(deps, request.params.id, { requestId: request.id }),
  );
}
