/** Balance, totals and prices: always 2 decimals, e.g. $12.50. */
export function formatMoney(value: number | null | undefined): string {
  const amount = Number.isFinite(value) ? Number(value) : 0;
  return `$${amount.toFixed(2)}`;
}

const upToTwoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** Deposit amounts: dollars with up to 2 decimals, e.g. $10, $12.5, $1,250.75. */
export function formatAmount(value: number | string | null | undefined): string {
  const amount = Number(value);
  return `$${upToTwoDecimals.format(Number.isFinite(amount) ? amount : 0)}`;
}

const dateParts = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** en-GB day-month-year with dashes and 24-hour time, e.g. 22-11-2026 14:05. Empty for a missing or bad date. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    dateParts.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return `${part('day')}-${part('month')}-${part('year')} ${part('hour')}:${part('minute')}`;
}

/** A moment soon to come: 24-hour time alone when it is today (14:05), else with its date (23-11-2026 09:30). */
export function formatTimeOrDateTime(value: Date, now: Date = new Date()): string {
  if (value.toDateString() !== now.toDateString()) return formatDateTime(value);
  return formatDateTime(value).split(' ')[1] ?? '';
}

/** Deposits carry unix seconds. */
export function formatUnixSeconds(seconds: number | string | null | undefined): string {
  const value = Number(seconds);
  if (seconds === null || seconds === undefined || !Number.isFinite(value)) return '';
  return formatDateTime(value * 1000);
}

/** Up to two initials for the avatar: "Jane Doe" → "JD". */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]?.[0], words.at(-1)?.[0]] : [words[0]?.[0], words[0]?.[1]];
  return letters.filter(Boolean).join('').toUpperCase() || '?';
}
