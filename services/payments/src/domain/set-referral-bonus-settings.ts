import type { InternalReferralBonusSettings, SetReferralBonusSettingsBody } from '@flatship/proto';
import { toInternalSettings } from './get-referral-bonus-settings';
import type { Clock, ReferralBonusRepo, Transactor } from './ports';
import { assertUserId } from './rules';

/**
 * An admin sets the referral bonus (the body's schema holds each amount to whole cents within the limits). The
 * change is recorded with the admin's id next to the settings, in one transaction. It applies to first deposits
 * that settle from now on; bonuses already decided keep their amounts.
 */
export async function setReferralBonusSettings(
  deps: { bonuses: ReferralBonusRepo; transactor: Transactor; clock: Clock },
  body: SetReferralBonusSettingsBody,
): Promise<InternalReferralBonusSettings> {
  assertUserId(body.adminId);
  const { adminId, ...settings } = body;
  const saved = await deps.transactor.run((tx) => deps.bonuses.setSettings(settings, adminId, deps.clock.now(), tx));
  return toInternalSettings(saved);
}
