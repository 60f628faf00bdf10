import type { AdminReferralBonusBody, AdminReferralBonusReply } from '@flatship/proto';
import { getJson, putJson } from '../../../app/http';

export type { AdminReferralBonusBody, AdminReferralBonusReply };

export const adminReferralBonusApi = {
  /** GET /api/admin/referral-bonus: the settings in dollars and their last change. */
  get: () => getJson<AdminReferralBonusReply>('admin/referral-bonus'),
  /** PUT /api/admin/referral-bonus: new settings; the server checks them again and records the admin. */
  save: (body: AdminReferralBonusBody) => putJson<AdminReferralBonusReply>('admin/referral-bonus', body),
};
