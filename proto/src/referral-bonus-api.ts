import { type Static, Type } from 'typebox';
import { REFERRAL_BONUS_LIMITS } from './referral-bonus-rules';
import { ActivationSchema } from './users';

/**
 * The referral bonus: money the payments ledger credits once per referred user and side (`referrer`: the user
 * whose code was used; `referred`: the new user) when the new user's first settled deposit is at least the
 * minimum. Both amounts 0 is the program switched off, which is how a fresh install starts.
 */
export const REFERRAL_BONUS_SIDES = ['referrer', 'referred'] as const;
export type ReferralBonusSide = (typeof REFERRAL_BONUS_SIDES)[number];

const BonusCents = Type.Integer({ minimum: 0, maximum: REFERRAL_BONUS_LIMITS.bonusMaxCents });
const MinimumDepositCents = Type.Integer({ minimum: 0, maximum: REFERRAL_BONUS_LIMITS.minimumDepositMaxCents });

/** The settings as payments stores them, in cents. */
export const ReferralBonusSettingsCentsSchema = Type.Object({
  referrerBonusCents: BonusCents,
  referredBonusCents: BonusCents,
  minimumDepositCents: MinimumDepositCents,
});
export type ReferralBonusSettingsCents = Static<typeof ReferralBonusSettingsCentsSchema>;

/** GET /internal/referral-bonus/settings on payments: the settings and who changed them last (null: never changed). */
export const InternalReferralBonusSettingsSchema = Type.Object({
  referrerBonusCents: BonusCents,
  referredBonusCents: BonusCents,
  minimumDepositCents: MinimumDepositCents,
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
});
export type InternalReferralBonusSettings = Static<typeof InternalReferralBonusSettingsSchema>;

/** PUT /internal/referral-bonus/settings on payments: new settings, recorded with the admin who chose them. */
export const SetReferralBonusSettingsBodySchema = Type.Object({
  referrerBonusCents: BonusCents,
  referredBonusCents: BonusCents,
  minimumDepositCents: MinimumDepositCents,
  adminId: Type.String({ format: 'uuid' }),
});
export type SetReferralBonusSettingsBody = Static<typeof SetReferralBonusSettingsBodySchema>;

/** GET /api/payment/referral-bonus (any signed-in user): the terms as onboarding states them, in dollars. */
export const ReferralBonusTermsSchema = Type.Object({
  isEnabled: Type.Boolean(),
  referrerBonus: Type.Number(),
  referredBonus: Type.Number(),
  minimumDeposit: Type.Number(),
});
export type ReferralBonusTerms = Static<typeof ReferralBonusTermsSchema>;

/**
 * PUT /api/admin/referral-bonus: dollars, as numbers or numeric text (what a form field holds). Each is checked
 * on the server with a message naming the field.
 */
const DollarInput = Type.Union([Type.Number(), Type.String(), Type.Null()]);
export const AdminReferralBonusBodySchema = Type.Object({
  referrerBonus: DollarInput,
  referredBonus: DollarInput,
  minimumDeposit: DollarInput,
});
export type AdminReferralBonusBody = Static<typeof AdminReferralBonusBodySchema>;

/** GET and PUT /api/admin/referral-bonus: the settings in dollars and the last change. */
export const AdminReferralBonusReplySchema = Type.Object({
  message: Type.Optional(Type.String()),
  referrerBonus: Type.Number(),
  referredBonus: Type.Number(),
  minimumDeposit: Type.Number(),
  /** When the settings were last changed, and by which admin; null while they are the defaults. */
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  updatedBy: Type.Union([Type.Object({ _id: Type.String(), name: Type.String(), email: Type.String() }), Type.Null()]),
});
export type AdminReferralBonusReply = Static<typeof AdminReferralBonusReplySchema>;

/**
 * One side of one referral, as the Invites page shows it: `credited` (the amount, on `creditedAt`), `withheld`
 * (the beneficiary was blocked or deleted when the first deposit settled; `reason`), `waiting` (no deposit yet;
 * the amount the current settings promise) or `none` (no bonus: the first deposit was under the minimum, or was
 * made while this side's bonus was 0 or before the code was applied). Dollars.
 */
export const ReferralBonusStatusSchema = Type.Union([
  Type.Literal('credited'),
  Type.Literal('withheld'),
  Type.Literal('waiting'),
  Type.Literal('none'),
]);
export type ReferralBonusStatus = Static<typeof ReferralBonusStatusSchema>;

export const ReferralBonusWithheldReasonSchema = Type.Union([Type.Literal('blocked'), Type.Literal('deleted')]);
export type ReferralBonusWithheldReason = Static<typeof ReferralBonusWithheldReasonSchema>;

export const ReferralBonusSideStateSchema = Type.Object({
  status: ReferralBonusStatusSchema,
  amount: Type.Number(),
  creditedAt: Type.Optional(Type.String()),
  reason: Type.Optional(ReferralBonusWithheldReasonSchema),
});
export type ReferralBonusSideState = Static<typeof ReferralBonusSideStateSchema>;

/** Both sides of one referral. */
export const ReferralBonusStateSchema = Type.Object({
  referrer: ReferralBonusSideStateSchema,
  referred: ReferralBonusSideStateSchema,
});
export type ReferralBonusState = Static<typeof ReferralBonusStateSchema>;

/** POST /internal/referral-bonuses on payments: the bonus state of each referred user named. */
export const ReferralBonusesBodySchema = Type.Object({
  referredUserIds: Type.Array(Type.String({ format: 'uuid' }), { maxItems: 1000 }),
});
export type ReferralBonusesBody = Static<typeof ReferralBonusesBodySchema>;

export const ReferralBonusesReplySchema = Type.Object({
  bonuses: Type.Array(
    Type.Object({
      referredUserId: Type.String(),
      referrer: ReferralBonusSideStateSchema,
      referred: ReferralBonusSideStateSchema,
    }),
  ),
});
export type ReferralBonusesReply = Static<typeof ReferralBonusesReplySchema>;

/** One party of a referral as auth knows it now; `deleted` users are still named, for the books. */
export const ReferralPartySchema = Type.Object({
  id: Type.String(),
  activation: ActivationSchema,
  deleted: Type.Boolean(),
});
export type ReferralParty = Static<typeof ReferralPartySchema>;

/** GET /internal/users/:id/referral on auth: the user and who referred them (null: nobody). 404 for no such user. */
export const ReferralStandingSchema = Type.Object({
  user: ReferralPartySchema,
  referrer: Type.Union([ReferralPartySchema, Type.Null()]),
  /**
   * When the user took the referrer's code (ISO time): a deposit that settled before it brings no bonus. Absent or
   * null with no referrer, or from an auth that does not say.
   */
  referredAt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type ReferralStanding = Static<typeof ReferralStandingSchema>;
