import { AppError } from '@flatship/kit';
import { type DecimalRule, parseDecimal } from '@flatship/proto';
import { MESSAGES } from './messages';

export const MAX_BALANCE_CENTS = 100_000_000;

const BALANCE: DecimalRule = { decimals: 2, min: 0, max: MAX_BALANCE_CENTS / 100 };

/**
 * An admin's balance entry (a number, or the text of one, in dollars) as cents, read by
 * proto's parseDecimal: plain decimal notation only ("1e3", "0x10" or "12." are typing
 * mistakes, not amounts). Refuses rather than rounds: a third decimal is most likely a typo,
 * and silently storing something else than what was typed is worse.
 */
export function parseBalanceInput(value: number | string): number {
  const checked = parseDecimal(value, 'Balance', BALANCE);
  if (!checked.ok) {
    throw new AppError(
      'VALIDATION_FAILED',
      checked.problem === 'too-large' ? MESSAGES.balanceTooLarge : MESSAGES.balanceInvalid,
    );
  }
  // At most 2 decimals and at most $1,000,000: exact once rounded to the nearest cent.
  return Math.round(checked.value * 100);
}
