import { AppError } from '@flatship/kit';
import type { LedgerPort, QuotePort } from '../src/domain/ports';

/**
 * Our own quote and ledger ports held in memory, for domain tests that must
 * not depend on the pricing and payments services. They keep those services'
 * promises: prices by service name, charges idempotent by key and never below zero.
 */
export function createMemoryQuotes(
  services: Record<string, { uid: string; priceCents: number; maxWeight?: number; enabled?: boolean }>,
): QuotePort & { calls: number } {
  const port = {
    calls: 0,
    async quote(_userId: string, shipments: { serviceName: string; weightLb: number }[]) {
      port.calls++;
      return shipments.map((s) => {
        const svc = services[s.serviceName];
        if (!svc) throw new AppError('PRICING_SERVICE_UNKNOWN', `Service ${s.serviceName} is not available`);
        if (svc.enabled === false) throw new AppError('PRICING_SERVICE_DISABLED', `${s.serviceName} is disabled`);
        const max = svc.maxWeight ?? 70;
        if (s.weightLb > max) {
          throw new AppError('PRICING_WEIGHT_OVER_MAX', `Weight must be at most ${max} lbs for ${s.serviceName}`);
        }
        return {
          serviceUid: svc.uid,
          serviceName: s.serviceName,
          billedWeight: Math.max(1, Math.ceil(s.weightLb)),
          priceCents: svc.priceCents,
        };
      });
    },
  };
  return port;
}

export interface MemoryEntry {
  key: string;
  userId: string;
  amountCents: number;
  kind: 'charge' | 'refund';
  chargeKey?: string;
}

export function createMemoryLedger(): LedgerPort & {
  balances: Map<string, number>;
  entries: MemoryEntry[];
  /** Makes the next n calls fail as if payments were down. */
  failNext(n: number): void;
} {
  const balances = new Map<string, number>();
  const entries: MemoryEntry[] = [];
  let failures = 0;
  const down = () => {
    if (failures > 0) {
      failures--;
      throw new AppError('SERVICE_UNAVAILABLE', 'A required service is unavailable (test)');
    }
  };
  return {
    balances,
    entries,
    failNext(n) {
      failures = n;
    },
    async charge(req) {
      down();
      if (entries.some((e) => e.key === req.key)) return { balanceCents: balances.get(req.userId) ?? 0 };
      const balance = balances.get(req.userId) ?? 0;
      if (balance < req.amountCents) {
        throw new AppError('PAYMENTS_INSUFFICIENT_BALANCE', 'Insufficient balance. Please add funds to continue.');
      }
      balances.set(req.userId, balance - req.amountCents);
      entries.push({ key: req.key, userId: req.userId, amountCents: -req.amountCents, kind: 'charge' });
      return { balanceCents: balance - req.amountCents };
    },
    async refund(req) {
      down();
      if (entries.some((e) => e.key === req.key)) return { balanceCents: balances.get(req.userId) ?? 0 };
      const charge = entries.find((e) => e.key === req.chargeKey && e.kind === 'charge');
      if (!charge) throw new AppError('PAYMENTS_CHARGE_NOT_FOUND', 'No such charge');
      const balance = (balances.get(req.userId) ?? 0) + req.amountCents;
      balances.set(req.userId, balance);
      entries.push({
        key: req.key,
        userId: req.userId,
        amountCents: req.amountCents,
        kind: 'refund',
        chargeKey: req.chargeKey,
      });
      return { balanceCents: balance };
    },
  };
}
