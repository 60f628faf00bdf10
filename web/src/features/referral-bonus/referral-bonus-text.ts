import type { ReferralBonusSideState, ReferralBonusTerms } from '@flatship/proto';
import { formatDateTime, formatMoney } from '../../app/format';

/**
 * The referral bonus in words, from the terms payments states (GET /api/payment/referral-bonus). Only a user's
 * first deposit counts, and only when it is at least the minimum; the sentences say exactly that, or nothing when
 * the program is off.
 */
function condition(terms: ReferralBonusTerms, whose: 'your' | 'their'): string {
  const paid = `once ${whose} first deposit is paid`;
  return terms.minimumDeposit > 0 ? `${paid}, if it is ${formatMoney(terms.minimumDeposit)} or more` : paid;
}

/** Onboarding, to the new user: what they and their friend get. Null when there is no bonus to mention. */
export function newcomerBonusText(terms: ReferralBonusTerms | null): string | null {
  if (!terms?.isEnabled) return null;
  const when = condition(terms, 'your');
  const mine = terms.referredBonus > 0;
  const friend = terms.referrerBonus > 0;
  if (mine && friend) {
    return `You get ${formatMoney(terms.referredBonus)} and the friend who invited you gets ${formatMoney(terms.referrerBonus)} ${when}.`;
  }
  if (mine) return `You get ${formatMoney(terms.referredBonus)} ${when}.`;
  return `The friend who invited you gets ${formatMoney(terms.referrerBonus)} ${when}.`;
}

/** The Invites page, to the one inviting: what each invitation can bring. Null when there is no bonus. */
export function referrerBonusText(terms: ReferralBonusTerms | null): string | null {
  if (!terms?.isEnabled) return null;
  const when = condition(terms, 'their');
  const mine = terms.referrerBonus > 0;
  const theirs = terms.referredBonus > 0;
  if (mine && theirs) {
    return `You get ${formatMoney(terms.referrerBonus)} for each friend who joins with your code ${when}, and they get ${formatMoney(terms.referredBonus)} too.`;
  }
  if (mine) return `You get ${formatMoney(terms.referrerBonus)} for each friend who joins with your code ${when}.`;
  return `Each friend who joins with your code gets ${formatMoney(terms.referredBonus)} ${when}.`;
}

/** The admin page: the program in the third person. */
export function programText(terms: ReferralBonusTerms): string {
  if (!terms.isEnabled) return 'The program is off: no bonus is paid.';
  const when = condition(terms, 'their').replace('their first deposit', 'the new user’s first deposit');
  const parts = [
    terms.referrerBonus > 0 ? `the referrer gets ${formatMoney(terms.referrerBonus)}` : null,
    terms.referredBonus > 0 ? `the new user gets ${formatMoney(terms.referredBonus)}` : null,
  ].filter(Boolean);
  const who = parts.join(' and ');
  return `${who.charAt(0).toUpperCase()}${who.slice(1)} ${when}.`;
}

const WITHHELD: Record<NonNullable<ReferralBonusSideState['reason']>, string> = {
  blocked: 'account blocked',
  deleted: 'account deleted',
};

/** One side of one referral in a table cell: the words and a tone for the badge. */
export function bonusStateText(state: ReferralBonusSideState | undefined): {
  text: string;
  detail?: string;
  tone: 'success' | 'pending' | 'muted' | 'danger';
} {
  if (!state) return { text: '—', tone: 'muted' };
  switch (state.status) {
    case 'credited':
      return {
        text: `${formatMoney(state.amount)} credited`,
        ...(state.creditedAt ? { detail: `on ${formatDateTime(state.creditedAt)}` } : {}),
        tone: 'success',
      };
    case 'waiting':
      return { text: `${formatMoney(state.amount)} after first deposit`, tone: 'pending' };
    case 'withheld':
      return {
        text: 'Not credited',
        ...(state.reason ? { detail: WITHHELD[state.reason] } : {}),
        tone: 'danger',
      };
    default:
      return { text: 'No bonus', tone: 'muted' };
  }
}
