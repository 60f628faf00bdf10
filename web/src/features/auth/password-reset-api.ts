import type { ForgotPasswordReply, ResetPasswordReply } from '@flatship/proto';
import { postJson } from '../../app/http';

export const passwordResetApi = {
  /** POST /api/auth/forgot-password: the same answer whether or not the email has an account. */
  requestLink: (email: string) => postJson<ForgotPasswordReply>('auth/forgot-password', { email }),
  /** POST /api/auth/reset-password: the token from the link and the new password. */
  reset: (token: string, password: string) => postJson<ResetPasswordReply>('auth/reset-password', { token, password }),
};
