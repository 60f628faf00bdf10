import { AppError, type InternalClient } from '@flatship/kit';
import type { ReferralStanding } from '@flatship/proto';
import type { ReferralDirectory } from '../domain/ports';

/** Asks auth who referred a user (`GET /internal/users/:id/referral`); a user auth does not know is null. */
export function createAuthReferralDirectory(auth: InternalClient): ReferralDirectory {
  return {
    async standing(userId) {
      try {
        return await auth.request<ReferralStanding>('GET', `/internal/users/${encodeURIComponent(userId)}/referral`);
      } catch (err) {
        if (err instanceof AppError && err.code === 'USER_NOT_FOUND') return null;
        throw err;
      }
    },
  };
}
