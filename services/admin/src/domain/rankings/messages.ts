/** The texts of the rankings an admin sees. */
export const RANKINGS_MESSAGES = {
  invalidDate: (field: string, value: string) => `${field} must be a calendar date (YYYY-MM-DD); got '${value}'`,
  startAfterEnd: 'Start date must be on or before the end date',
  periodTooLong: 'A custom period can span at most 10 years',
} as const;
