import { requireInternal, type ServiceApp } from '@flatship/kit';
import {
  InternalReferralBonusSettingsSchema,
  ReferralBonusesBodySchema,
  ReferralBonusesReplySchema,
  ReferralBonusTermsSchema,
  SetReferralBonusSettingsBodySchema,
} from '@flatship/proto';
import { getReferralBonusSettings, getReferralBonusTerms } from '../domain/get-referral-bonus-settings';
import { listReferralBonuses } from '../domain/list-referral-bonuses';
import { setReferralBonusSettings } from '../domain/set-referral-bonus-settings';
import type { DomainDeps } from './deps';

/** The referral bonus: its terms for everyone, its settings and each referral's state for other services. */
export function registerReferralBonusRoutes(app: ServiceApp, deps: DomainDeps, internalSecret: string): void {
  // Public: the register page states the terms to a visitor who came with an invite link (nothing in them is private).
  app.get('/api/payment/referral-bonus', { schema: { response: { 200: ReferralBonusTermsSchema } } }, () =>
    getReferralBonusTerms(deps),
  );

  const onRequest = [requireInternal(internalSecret)];
  app.get(
    '/internal/referral-bonus/settings',
    { onRequest, schema: { response: { 200: InternalReferralBonusSettingsSchema } } },
    () => getReferralBonusSettings(deps),
  );

  app.put(
    '/internal/referral-bonus/settings',
    {
      onRequest,
      schema: { body: SetReferralBonusSettingsBodySchema, response: { 200: InternalReferralBonusSettingsSchema } },
    },
    (request) => setReferralBonusSettings(deps, request.body),
  );

  app.post(
    '/internal/referral-bonuses',
    { onRequest, schema: { body: ReferralBonusesBodySchema, response: { 200: ReferralBonusesReplySchema } } },
    async (request) => ({ bonuses: await listReferralBonuses(deps, request.body.referredUserIds) }),
  );
}
