import type { CarrierSet } from '@flatship/carriers';
import { AppError } from '@flatship/kit';
import { type CarrierBalanceReply, centsToDollars } from '@flatship/proto';
import { MESSAGES } from './messages';

/**
 * The enabled carriers as admin uses them (the registry's `CarrierSet`): their account balances, in cents, and,
 * where given, their plugins and adapters (the connection check) and what each sells through whom (the routes).
 */
export type CarrierAccounts = Pick<CarrierSet, 'balances'> &
  Partial<Pick<CarrierSet, 'carriers' | 'adapter' | 'services' | 'routesProblem'>>;

export interface ReadCarrierBalanceDeps {
  carriers: CarrierAccounts;
  /** An account below this many cents is low. */
  warnBelowCents: number;
  log: { warn(details: object, message: string): void };
}

/**
 * What is left on the platform's carrier accounts, and whether any is low. A carrier that does not answer is
 * ADMIN_CARRIER_UNREACHABLE (its own error goes to the log only: it may name hosts or carry its raw answer).
 */
export async function readCarrierBalance(deps: ReadCarrierBalanceDeps): Promise<CarrierBalanceReply> {
  let accounts: Awaited<ReturnType<CarrierAccounts['balances']>>;
  try {
    accounts = await deps.carriers.balances();
  } catch (error) {
    deps.log.warn({ err: error }, 'reading the carrier account balance failed');
    throw new AppError('ADMIN_CARRIER_UNREACHABLE', MESSAGES.carrierUnreachable);
  }
  const isLow = (cents: number) => cents < deps.warnBelowCents;
  return {
    balance: centsToDollars(accounts.reduce((sum, a) => sum + a.balanceCents, 0)),
    warnBelow: centsToDollars(deps.warnBelowCents),
    isLow: accounts.some((a) => isLow(a.balanceCents)),
    carriers: accounts.map((a) => ({
      id: a.id,
      name: a.name,
      balance: centsToDollars(a.balanceCents),
      isLow: isLow(a.balanceCents),
    })),
  };
}
