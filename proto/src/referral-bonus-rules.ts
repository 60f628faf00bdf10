// No schema library here: the browser bundle imports these rules.
import { type DecimalRule, parseDecimal } from './numbers';

/** Ceilings, in cents: anything above is a typing mistake, not a promotion. */
export const REFERRAL_BONUS_LIMITS = {
  bonusMaxCents: 100_00,
  minimumDepositMaxCents: 10_000_00,
} as const;

/** The settings a fresh install starts with: no bonus (an operator opts in), $10 minimum once one is set. */
export const REFERRAL_BONUS_DEFAULTS = {
  referrerBonusCents: 0,
  referredBonusCents: 0,
  minimumDepositCents: 10_00,
} as const;

export type ReferralBonusField = 'referrerBonus' | 'referredBonus' | 'minimumDeposit';

/** What each field is called in messages and on the admin page. */
export const REFERRAL_BONUS_FIELD_LABELS: Record<ReferralBonusField, string> = {
  referrerBonus: 'Referrer bonus',
  referredBonus: 'New user bonus',
  minimumDeposit: 'Minimum first deposit',
};

const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const MAX_CENTS: Record<ReferralBonusField, number> = {
  referrerBonus: REFERRAL_BONUS_LIMITS.bonusMaxCents,
  referredBonus: REFERRAL_BONUS_LIMITS.bonusMaxCents,
  minimumDeposit: REFERRAL_BONUS_LIMITS.minimumDepositMaxCents,
};

export type ReferralBonusInput = Record<ReferralBonusField, unknown>;
export type ReferralBonusCents = {
  referrerBonusCents: number;
  referredBonusCents: number;
  minimumDepositCents: number;
};

/**
 * The admin's referral bonus settings (dollars, as numbers or the text of a form field) as whole cents, or the
 * first problem with a message naming the field: required, a plain decimal, 0 or more, at most 2 decimals, at most
 * the field's ceiling. The admin page checks with this before saving; the admin service checks again.
 */
export function parseReferralBonusInput(
  input: ReferralBonusInput,
): { ok: true; cents: ReferralBonusCents } | { ok: false; field: ReferralBonusField; message: string } {
  const cents = {} as Record<ReferralBonusField, number>;
  for (const field of ['referrerBonus', 'referredBonus', 'minimumDeposit'] as const) {
    const label = REFERRAL_BONUS_FIELD_LABELS[field];
    const rule: DecimalRule = { decimals: 2, min: 0, max: MAX_CENTS[field] / 100 };
    const checked = parseDecimal(input[field], label, rule, {
      'too-large': `${label} must be at most ${dollars(MAX_CENTS[field])}`,
    });
    if (!checked.ok) return { ok: false, field, message: checked.message };
    // At most 2 decimals and a bounded size: exact once rounded to the nearest cent.
    cents[field] = Math.round(checked.value * 100);
  }
  return {
    ok: true,
    cents: {
      referrerBonusCents: cents.referrerBonus,
      referredBonusCents: cents.referredBonus,
      minimumDepositCents: cents.minimumDeposit,
    },
  };
}
