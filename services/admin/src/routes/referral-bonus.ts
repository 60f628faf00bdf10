import { requireAuth, type ServiceApp } from '@flatship/kit';
import { AdminReferralBonusBodySchema, AdminReferralBonusReplySchema } from '@flatship/proto';
import {
  getReferralBonusSettings,
  type ReferralBonusSettingsDeps,
  updateReferralBonusSettings,
} from '../domain/referral-bonus-settings';

/** The referral bonus program's settings (admin area, referral management). */
export function registerReferralBonusRoutes(app: ServiceApp, deps: ReferralBonusSettingsDeps): void {
  app.get(
    '/api/admin/referral-bonus',
    { onRequest: [app.requireAdmin], schema: { response: { 200: AdminReferralBonusReplySchema } } },
    (request) => getReferralBonusSettings(deps, { requestId: request.id }),
  );

  app.put(
    '/api/admin/referral-bonus',
    {
      onRequest: [app.requireAdmin],
      schema: { body: AdminReferralBonusBodySchema, response: { 200: AdminReferralBonusReplySchema } },
    },
    (request) =>
      updateReferralBonusSettings(
        deps,
        { adminId: requireAuth(request).userId, body: request.body },
        { requestId: request.id },
      ),
  );
}
