import { requireAuth, type ServiceApp } from '@flatship/kit';
import {
  AccountUpdateBodySchema,
  AccountUpdateReplySchema,
  EndLoginAsReplySchema,
  LoginBodySchema,
  LoginReplySchema,
  RegisterBodySchema,
  RegisterReplySchema,
  VerifyReplySchema,
} from '@flatship/proto';
import { endLoginAs } from '../domain/end-login-as';
import { getSessionUser } from '../domain/get-session-user';
import { logIn } from '../domain/log-in';
import { MESSAGES } from '../domain/messages';
import { registerUser } from '../domain/register-user';
import { updateAccount } from '../domain/update-account';
import type { DomainDeps } from './deps';

export function registerAuthRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.post(
    '/api/auth/register',
    { schema: { body: RegisterBodySchema, response: { 201: RegisterReplySchema } } },
    async (request, reply) => {
      const { token, user } = await registerUser(deps, request.body);
      return reply.status(201).send({ ok: true, token, user, message: MESSAGES.registered });
    },
  );

  app.post('/api/auth/login', { schema: { body: LoginBodySchema, response: { 200: LoginReplySchema } } }, (request) =>
    logIn(deps, request.body),
  );

  app.get(
    '/api/auth/verify',
    { onRequest: [app.requireUser], schema: { response: { 200: VerifyReplySchema } } },
    async (request) => ({ user: await getSessionUser(deps, requireAuth(request).userId) }),
  );

  // Not under /api/auth/login-as-user (admin's, for admins only): the login-as token itself may end its visit.
  app.post(
    '/api/auth/login-as/end',
    { onRequest: [app.requireUser], schema: { response: { 200: EndLoginAsReplySchema } } },
    async (request) => {
      await endLoginAs(deps, requireAuth(request));
      return { message: MESSAGES.loginAsEnded };
    },
  );

  app.patch(
    '/api/auth/account',
    {
      onRequest: [app.requireUser],
      schema: { body: AccountUpdateBodySchema, response: { 200: AccountUpdateReplySchema } },
    },
    async (request) => {
      const { token, user } = await updateAccount(deps, requireAuth(request).userId, request.body);
      return { message: MESSAGES.accountUpdated, token, user };
    },
  );
}
