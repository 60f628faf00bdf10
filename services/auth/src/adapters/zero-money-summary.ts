import type { MoneySummarySource } from '../domain/ports';

/**
 * Balances, deposits and spending live in payments, not here. Until a
 * payments service is configured nobody has any money, so every user is
 * reported with zeros (an absent entry means zero to the domain).
 */
export function createZeroMoneySummary(): MoneySummarySource {
  return { get: async () => new Map() };
}
