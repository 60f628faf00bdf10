import type { InternalClient } from '@flatship/kit';
import type {
  InternalResetLinkReply,
  InternalUser,
  LoginAsTokenBody,
  LoginAsTokenReply,
  SetActivationBody,
  SetReferralCodeBody,
  SetRoleBody,
  UsersExportReply,
} from '@flatship/proto';
import type { UserDirectory } from '../domain/ports';

/** Users through auth's internal API; its errors (USER_NOT_FOUND, REFERRAL_CODE_TAKEN, …) come back unchanged. */
export function createAuthUserDirectory(auth: InternalClient): UserDirectory {
  const path = (id: string) => `/internal/users/${encodeURIComponent(id)}`;
  return {
    get: (userId, ctx) => auth.request<InternalUser>('GET', path(userId), { requestId: ctx.requestId }),
    setReferralCode(userId, referralCode, ctx) {
      const body: SetReferralCodeBody = { referralCode };
      return auth.request<InternalUser>('POST', `${path(userId)}/referral-code`, { body, requestId: ctx.requestId });
    },
    setRole(userId, role, ctx) {
      const body: SetRoleBody = { user_role: role };
      return auth.request<InternalUser>('POST', `${path(userId)}/role`, { body, requestId: ctx.requestId });
    },
    setActivation(userId, activation, ctx) {
      const body: SetActivationBody = { activation };
      return auth.request<InternalUser>('POST', `${path(userId)}/activation`, { body, requestId: ctx.requestId });
    },
    async delete(userId, ctx) {
      await auth.request<void>('DELETE', path(userId), { requestId: ctx.requestId });
    },
    loginAsToken(userId, adminId, ctx) {
      const body: LoginAsTokenBody = { adminId };
      return auth.request<LoginAsTokenReply>('POST', `${path(userId)}/login-as-token`, {
        body,
        requestId: ctx.requestId,
      });
    },
    async exportPage(after, limit, ctx) {
      const query = new URLSearchParams({ limit: String(limit), ...(after ? { after } : {}) });
      const reply = await auth.request<UsersExportReply>('GET', `/internal/users/export?${query}`, {
        requestId: ctx.requestId,
      });
      return reply.users;
    },
    issueResetLink: (userId, ctx) =>
      auth.request<InternalResetLinkReply>('POST', `${path(userId)}/reset-link`, { requestId: ctx.requestId }),
  };
}
