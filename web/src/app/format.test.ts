import { describe, expect, it } from 'vitest';
import { formatAmount, formatDateTime, formatMoney, formatUnixSeconds, initials } from './format';

describe('formatters', () => {
  it('formats money with 2 decimals and amounts with up to 2', () => {
    expect(formatMoney(12.5)).toBe('$12.50');
    expect(formatMoney(undefined)).toBe('$0.00');
    expect(formatAmount(10)).toBe('$10');
    expect(formatAmount(12.345)).toBe('$12.35');
  });

  it('formats dates day-month-year with dashes and 24-hour time', () => {
    expect(formatDateTime(new Date(2026, 10, 22, 14, 5))).toBe('22-11-2026 14:05');
    expect(formatDateTime(new Date(2026, 0, 2, 0, 7))).toBe('02-01-2026 00:07');
    expect(formatUnixSeconds(new Date(2026, 10, 22, 9, 30).getTime() / 1000)).toBe('22-11-2026 09:30');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('derives avatar initials', () => {
    expect(initials('Jane Doe')).toBe('JD');
    expect(initials('jane')).toBe('JA');
    expect(initials('')).toBe('?');
  });
});
