import { AppError, requireAuth, type ServiceApp } from '@flatship/kit';
import {
  ADMIN_USERS_DEFAULT_QUERY,
  AdminUserChangeReplySchema,
  AdminUserDeleteReplySchema,
  AdminUsersQuerySchema,
  AdminUsersReplySchema,
  centsToDollars,
  IdSchema,
  LoginAsReplySchema,
  ResetLinkReplySchema,
  SetActivationRequestSchema,
  SetRoleRequestSchema,
  UserDetailsBodySchema,
  UserDetailsReplySchema,
} from '@flatship/proto';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { UsersViewRepo } from '../db/users-view-repo';
import { issueResetLink } from '../domain/issue-reset-link';
import {
  type Acting,
  changeUserAccess,
  changeUserRole,
  deleteUser,
  loginAsUser,
  type ManageUsersDeps,
} from '../domain/manage-users';
import { MESSAGES } from '../domain/messages';
import { type UpdateUserDetailsDeps, updateUserDetails } from '../domain/update-user-details';

export type UserRoutesDeps = UpdateUserDetailsDeps & ManageUsersDeps & { view: UsersViewRepo };

/** Who acts (the admin, as their token says) on whom (the id in the path). */
function acting(request: FastifyRequest<{ Params: { id: string } }>): Acting {
  return { adminId: requireAuth(request).userId, userId: request.params.id };
}

const IdParamsSchema = Type.Object({ id: IdSchema });
const IDEMPOTENCY_KEY_MAX = 150;

/** Admin user management (spec doc 3 §2, §7). The paths sit under /api/auth/users, which the gateway routes here. */
export function registerUserRoutes(app: ServiceApp, deps: UserRoutesDeps): void {
  app.get(
    '/api/auth/users',
    {
      onRequest: [app.requireAdmin],
      schema: { querystring: AdminUsersQuerySchema, response: { 200: AdminUsersReplySchema } },
    },
    async (request) => {
      const q = { ...ADMIN_USERS_DEFAULT_QUERY, ...request.query };
      const page = await deps.view.page({
        page: q.page,
        limit: q.limit,
        search: q.search ?? '',
        sort: q.sort,
        order: q.order,
      });
      return {
        users: page.users,
        totalCount: page.totalCount,
        page: q.page,
        limit: q.limit,
        totals: {
          balance: centsToDollars(page.totals.balanceCents),
          totalDeposit: centsToDollars(page.totals.totalDepositCents),
          totalSpent: centsToDollars(page.totals.totalSpentCents),
        },
      };
    },
  );

  app.post(
    '/api/auth/users/role/:id',
    {
      onRequest: [app.requireAdmin],
      schema: { params: IdParamsSchema, body: SetRoleRequestSchema, response: { 200: AdminUserChangeReplySchema } },
    },
    (request) => changeUserRole(deps, acting(request), request.body.user_role, { requestId: request.id }),
  );

  app.post(
    '/api/auth/users/activation/:id',
    {
      onRequest: [app.requireAdmin],
      schema: {
        params: IdParamsSchema,
        body: SetActivationRequestSchema,
        response: { 200: AdminUserChangeReplySchema },
      },
    },
    (request) => changeUserAccess(deps, acting(request), request.body.activation, { requestId: request.id }),
  );

  app.delete(
    '/api/auth/users/:id',
    {
      onRequest: [app.requireAdmin],
      schema: { params: IdParamsSchema, response: { 200: AdminUserDeleteReplySchema } },
    },
    (request) => deleteUser(deps, acting(request), { requestId: request.id }),
  );

  app.post(
    '/api/auth/login-as-user/:id',
    { onRequest: [app.requireAdmin], schema: { params: IdParamsSchema, response: { 200: LoginAsReplySchema } } },
    (request) => loginAsUser(deps, acting(request), { requestId: request.id }),
  );

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
          // The admin acting (a Login As visit never reaches an admin's route): the ledger names who set the figure.
          adminId: admin.userId,
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
