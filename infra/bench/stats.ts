/** The median of the finite values (the mean of the middle two for an even count); NaN when there are none. */
export function median(values: readonly number[]): number {
  const s = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
