/** The texts of the rankings an admin sees (a bad day: `calendarDayProblem` in proto). */
export const RANKINGS_MESSAGES = {
  startAfterEnd: 'startDate must be on or before endDate',
  periodTooLong: 'A custom period can span at most 10 years',
} as const;
