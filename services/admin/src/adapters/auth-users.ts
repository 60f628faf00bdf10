import type { InternalClient } from '@flatship/kit';
import type { InternalResetLinkReply, InternalUser, SetReferralCodeBody } from '@flatship/proto';
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
    issueResetLink: (userId, ctx) =>
      auth.request<InternalResetLinkReply>('POST', `${path(userId)}/reset-link`, { requestId: ctx.requestId }),
  };
}
