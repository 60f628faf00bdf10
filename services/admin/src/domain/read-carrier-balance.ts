import { AppError } from '@flatship/kit';
import { type CarrierBalanceReply, centsToDollars } from '@flatship/proto';
import { MESSAGES } from './messages';

/** The enabled carriers' account balances, in cents, as the carrier registry reports them. */
export interface CarrierAccounts {
  balances(): Promise<{ id: string; name: string; balanceCents: number }[]>;
  /** The enabled carriers' plugins (`CarrierSet.carriers`), for the connection check; none when absent. */
  readonly carriers?: readonly { id: string; name: string }[];
  /** A plugin's adapter (`CarrierSet.adapter`), whose `checkConnection` the check calls. */
  adapter?(
    id: string,
  ): { checkConnection?(): Promise<{ ok: true; detail: string } | { ok: false; message: string }> } | null;
  /** What the enabled carriers sell (`CarrierSet.services`) and each service's route (`CarrierSet.routes`). */
  services?(): readonly { uid: string; name: string }[];
  routes?(): readonly { serviceUid: string; carriers: readonly string[] }[];
}

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
