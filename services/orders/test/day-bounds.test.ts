import { describe, expect, test } from 'vitest';
import { dayBounds, dayIn } from '../src/domain/scan-forms/scan-forms';

const iso = (b: { from: Date; until: Date }) => [b.from.toISOString(), b.until.toISOString()];

describe('the instants a day spans in a time zone', () => {
  test('a day of 24 hours', () => {
    expect(iso(dayBounds('2026-03-11', 'Asia/Kolkata'))).toEqual([
      '2026-03-10T18:30:00.000Z',
      '2026-03-11T18:30:00.000Z',
    ]);
    expect(iso(dayBounds('2026-03-11', 'IST'))).toEqual(['2026-03-10T18:30:00.000Z', '2026-03-11T18:30:00.000Z']);
    expect(iso(dayBounds('2026-12-31', 'Pacific/Kiritimati'))).toEqual([
      '2026-12-30T10:00:00.000Z',
      '2026-12-31T10:00:00.000Z',
    ]);
  });

  test('the days the clocks change have 23 and 25 hours', () => {
    expect(iso(dayBounds('2026-03-08', 'America/New_York'))).toEqual([
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
    ]);
    expect(iso(dayBounds('2026-11-01', 'America/New_York'))).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
    ]);
  });

  test('a day whose midnight is skipped begins when its clocks start', () => {
    const { from } = dayBounds('2026-09-06', 'America/Santiago');
    expect(dayIn(from, 'America/Santiago')).toBe('2026-09-06');
    expect(dayIn(new Date(from.getTime() - 1), 'America/Santiago')).toBe('2026-09-05');
  });
});
