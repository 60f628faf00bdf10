import { MAX_CENTS } from './rules';

export type ParsedAmount = { ok: true; cents: number; truncated: boolean } | { ok: false };

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * BTCPay's decimal string ("12.5", "0.019") as whole cents, digit by digit so
 * no binary fraction ever rounds a customer's money. Digits past the cent are
 * dropped (rounded down): a credit never exceeds what was paid.
 */
export function parseDepositAmount(amount: string): ParsedAmount {
  const m = DECIMAL.exec(amount.trim());
  if (!m) return { ok: false };
  const whole = (m[1] as string).replace(/^0+(?=\d)/, '');
  const fraction = m[2] ?? '';
  // Longer than MAX_CENTS in dollars can only be too large; checked before Number loses digits.
  if (whole.length > String(MAX_CENTS / 100).length) return { ok: false };
  const cents = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  if (cents > MAX_CENTS) return { ok: false };
  return { ok: true, cents, truncated: /[1-9]/.test(fraction.slice(2)) };
}
