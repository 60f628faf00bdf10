import type { ServiceApp } from '@flatship/kit';
import {
  ForgotPasswordBodySchema,
  ForgotPasswordReplySchema,
  ResetPasswordBodySchema,
  ResetPasswordReplySchema,
} from '@flatship/proto';
import { MESSAGES } from '../domain/messages';
import { requestPasswordReset } from '../domain/request-password-reset';
import { resetPassword } from '../domain/reset-password';
import type { DomainDeps } from './deps';

/** Public: no token. The gateway rate-limits both like the login. */
export function registerPasswordResetRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.post(
    '/api/auth/forgot-password',
    { schema: { body: ForgotPasswordBodySchema, response: { 200: ForgotPasswordReplySchema } } },
    async (request) => {
      await requestPasswordReset(deps, request.body.email);
      return { message: MESSAGES.resetRequested };
    },
  );

  app.post(
    '/api/auth/reset-password',
    { schema: { body: ResetPasswordBodySchema, response: { 200: ResetPasswordReplySchema } } },
    async (request) => {
      await resetPassword(deps, request.body.token, request.body.password);
      return { message: MESSAGES.passwordReset };
    },
  );
}
