import type { InternalClient } from '@flatship/kit';
import type { InternalReferralBonusSettings } from '@flatship/proto';
import type { ReferralBonusSettingsStore } from '../domain/ports';

const SETTINGS_PATH = '/internal/referral-bonus/settings';

/** The referral bonus settings through payments' internal API. */
export function createPaymentsReferralBonusSettings(payments: InternalClient): ReferralBonusSettingsStore {
  return {
    get: (ctx) => payments.request<InternalReferralBonusSettings>('GET', SETTINGS_PATH, { requestId: ctx.requestId }),
    set: (body, ctx) =>
      payments.request<InternalReferralBonusSettings>('PUT', SETTINGS_PATH, { body, requestId: ctx.requestId }),
  };
}
