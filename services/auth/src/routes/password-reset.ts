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
  // Resets still being made after their answer went out; a shutdown lets them finish.
  const making = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled(making);
  });

  app.post(
    '/api/auth/forgot-password',
    {
      schema: { body: ForgotPasswordBodySchema, response: { 200: ForgotPasswordReplySchema } },
      // The answer is the same for every email and is sent before anything is looked up or written, so how
      // long it takes cannot tell a registered email from another. The reset is made once it has gone out.
      onResponse: async (request, reply) => {
        if (reply.statusCode !== 200) return;
        const job = requestPasswordReset(deps, request.body.email).catch((err: unknown) =>
          request.log.error({ err }, 'password reset could not be made'),
        );
        making.add(job);
        await job.finally(() => making.delete(job));
      },
    },
    async () => ({ message: MESSAGES.resetRequested }),
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
