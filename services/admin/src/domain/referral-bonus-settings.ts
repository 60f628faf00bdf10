import { AppError } from '@flatship/kit';
import {
  type AdminReferralBonusBody,
  type AdminReferralBonusReply,
  centsToDollars,
  type InternalReferralBonusSettings,
  parseReferralBonusInput,
} from '@flatship/proto';
import { MESSAGES } from './messages';
import type { CallContext, ReferralBonusSettingsStore, UserDirectory } from './ports';

export interface ReferralBonusSettingsDeps {
  settings: ReferralBonusSettingsStore;
  users: UserDirectory;
}

/** The settings in dollars, with the admin who changed them last named (a deleted one is still shown by id). */
async function toReply(
  deps: ReferralBonusSettingsDeps,
  s: InternalReferralBonusSettings,
  ctx: CallContext,
): Promise<AdminReferralBonusReply> {
  let updatedBy: AdminReferralBonusReply['updatedBy'] = null;
  if (s.updatedBy) {
    try {
      const admin = await deps.users.get(s.updatedBy, ctx);
      updatedBy = { _id: admin._id, name: admin.name, email: admin.email };
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'USER_NOT_FOUND')) throw err;
      updatedBy = { _id: s.updatedBy, name: MESSAGES.formerAdmin, email: '' };
    }
  }
  return {
    referrerBonus: centsToDollars(s.referrerBonusCents),
    referredBonus: centsToDollars(s.referredBonusCents),
    minimumDeposit: centsToDollars(s.minimumDepositCents),
    updatedAt: s.updatedAt,
    updatedBy,
  };
}

/** GET /api/admin/referral-bonus. */
export async function getReferralBonusSettings(
  deps: ReferralBonusSettingsDeps,
  ctx: CallContext,
): Promise<AdminReferralBonusReply> {
  return toReply(deps, await deps.settings.get(ctx), ctx);
}

/**
 * PUT /api/admin/referral-bonus: the admin's amounts, checked field by field (the message names the field), stored
 * by payments with the admin's id. Applies to first deposits settling from now on.
 */
export async function updateReferralBonusSettings(
  deps: ReferralBonusSettingsDeps,
  input: { adminId: string; body: AdminReferralBonusBody },
  ctx: CallContext,
): Promise<AdminReferralBonusReply> {
  const parsed = parseReferralBonusInput(input.body);
  if (!parsed.ok) throw new AppError('VALIDATION_FAILED', parsed.message);
  const saved = await deps.settings.set({ ...parsed.cents, adminId: input.adminId }, ctx);
  const isOff = saved.referrerBonusCents === 0 && saved.referredBonusCents === 0;
  return {
    message: isOff ? MESSAGES.referralBonusOff : MESSAGES.referralBonusSaved,
    ...(await toReply(deps, saved, ctx)),
  };
}
