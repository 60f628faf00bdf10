/**
 * Money is integer cents everywhere inside the system and dollars with two
 * decimals on the public wire. These are the only two conversions.
 */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}

/** Rounds to the nearest cent; refuses values that are not finite numbers. */
export function dollarsToCents(dollars: number): number {
  if (!Number.isFinite(dollars)) throw new RangeError('amount must be a finite number');
  return Math.round(dollars * 100);
}
