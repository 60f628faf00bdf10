import type { ReferralBonusSideState } from '@flatship/proto';
import { bonusStateText } from './referral-bonus-text';
import './referral-bonus.css';

/** One side of one referral's bonus in a table cell: a badge (words, not only colour) and its detail. */
export function BonusState({ state }: { state: ReferralBonusSideState | undefined }) {
  const { text, detail, tone } = bonusStateText(state);
  if (!state) return <span className="bonus-state bonus-state--none">{text}</span>;
  return (
    <span className="bonus-state">
      <span className={`bonus-state__badge bonus-state__badge--${tone}`}>{text}</span>
      {detail ? <span className="bonus-state__detail">{detail}</span> : null}
    </span>
  );
}

/** The line of a deposit table that is a referral bonus rather than a BTCPay deposit. */
export function ReferralBonusTag({ description }: { description?: string | undefined }) {
  return (
    <span className="bonus-tag" title={description}>
      Referral bonus
    </span>
  );
}
