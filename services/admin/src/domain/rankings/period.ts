import { AppError } from '@flatship/kit';
import { calendarDayProblem, RANKINGS_CUSTOM_DATES_MESSAGE, type RankingPeriod } from '@flatship/proto';
import { RANKINGS_MESSAGES } from './messages';
import type { RankingWindow } from './ports';

const DAY_MS = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);

function parseDay(value: string, field: string): Date {
  const problem = calendarDayProblem(field, value);
  if (problem) throw new AppError('VALIDATION_FAILED', problem);
  return new Date(`${value}T00:00:00Z`);
}

/** The days a period covers, in UTC (see proto/src/rankings-api.ts), and how many there are. */
export function resolvePeriod(
  period: RankingPeriod,
  now: Date,
  custom: { startDate?: string; endDate?: string },
): RankingWindow & { days: number } {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  let start: Date;
  let end = today;
  switch (period) {
    case 'day':
      start = today;
      break;
    case 'week':
      start = new Date(today.getTime() - 6 * DAY_MS);
      break;
    case 'month':
      start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
      break;
    case 'year':
      start = new Date(Date.UTC(today.getUTCFullYear(), 0, 1));
      break;
    case 'custom': {
      if (!custom.startDate || !custom.endDate) throw new AppError('VALIDATION_FAILED', RANKINGS_CUSTOM_DATES_MESSAGE);
      start = parseDay(custom.startDate, 'startDate');
      end = parseDay(custom.endDate, 'endDate');
      if (start > end) throw new AppError('VALIDATION_FAILED', RANKINGS_MESSAGES.startAfterEnd);
      if (end.getTime() - start.getTime() > RANKINGS_MAX_DAYS * DAY_MS) {
        throw new AppError('VALIDATION_FAILED', RANKINGS_MESSAGES.periodTooLong);
      }
      break;
    }
  }
  return { start: iso(start), end: iso(end), days: Math.round((end.getTime() - start.getTime()) / DAY_MS) + 1 };
}

/** A custom period spans at most ten years, so its chart stays a sane size. */
export const RANKINGS_MAX_DAYS = 3660;

/** Every day of the window, in order. */
export function daysOf(window: RankingWindow): string[] {
  const out: string[] = [];
  const end = new Date(`${window.end}T00:00:00Z`).getTime();
  for (let t = new Date(`${window.start}T00:00:00Z`).getTime(); t <= end; t += DAY_MS) out.push(iso(new Date(t)));
  return out;
}
