// No schema library here: the browser bundle may import these values.

/**
 * The days a date filter may name (rankings' custom period, the admin's label list). Labels are bought now, not in
 * antiquity or the far future, and every day in this range is one PostgreSQL and JavaScript dates both handle
 * (year 0, or the day after 9999-12-31, are not).
 */
export const FIRST_CALENDAR_DAY = '2000-01-01';
export const LAST_CALENDAR_DAY = '2100-12-31';

export const CALENDAR_DAY_MESSAGES = {
  invalid: (field: string, value: string) => `${field} must be a calendar date (YYYY-MM-DD); got '${value}'`,
  outOfRange: (field: string, value: string) =>
    `${field} must be between ${FIRST_CALENDAR_DAY} and ${LAST_CALENDAR_DAY}; got '${value}'`,
} as const;

/** What is wrong with `value` as the day in `field` (a real YYYY-MM-DD day within the range), or null. */
export function calendarDayProblem(field: string, value: string): string | null {
  const d = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) {
    return CALENDAR_DAY_MESSAGES.invalid(field, value);
  }
  // Both are YYYY-MM-DD, so they compare as text.
  if (value < FIRST_CALENDAR_DAY || value > LAST_CALENDAR_DAY) return CALENDAR_DAY_MESSAGES.outOfRange(field, value);
  return null;
}
