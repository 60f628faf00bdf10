import { AppError } from '@flatship/kit';
import { MESSAGES } from './messages';

export const MAX_BALANCE_CENTS = 100_000_000;

// Plain decimal notation only: "1e3", "0x10", " 12 " or "12." are typing mistakes, not amounts.
const DOLLARS = /^\d+(\.\d{1,2})?$/;

/**
 * An admin's balance entry (a number, or the text of one, in dollars) as
 * cents. Refuses rather than rounds: a third decimal is most likely a typo,
 * and silently storing something else than what was typed is worse.
 */
export function parseBalanceInput(value: number | string): number {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new AppError('VALIDATION_FAILED', MESSAGES.balanceInvalid);
    // The shortest text that reads back as this number: 12.3 → "12.3", 0.1 + 0.2 → "0.30000000000000004".
    text = String(value);
    if (/e/i.test(text)) {
      if (value >= 1) throw new AppError('VALIDATION_FAILED', MESSAGES.balanceTooLarge);
      throw new AppError('VALIDATION_FAILED', MESSAGES.balanceInvalid);
    }
  } else {
    text = value.trim();
  }
  if (!DOLLARS.test(text)) throw new AppError('VALIDATION_FAILED', MESSAGES.balanceInvalid);
  const [whole = '0', fraction = ''] = text.split('.');
  // Whole dollars beyond the limit are refused before they could lose precision as a number.
  if (whole.replace(/^0+/, '').length > 7) throw new AppError('VALIDATION_FAILED', MESSAGES.balanceTooLarge);
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (cents > MAX_BALANCE_CENTS) throw new AppError('VALIDATION_FAILED', MESSAGES.balanceTooLarge);
  return cents;
}
