import type { DepositsRepo, LedgerRepo, Transactor } from '../domain/ports';

/** Everything the use cases may ask for; each route hands on what its use case needs. */
export interface DomainDeps {
  ledger: LedgerRepo;
  deposits: DepositsRepo;
  transactor: Transactor;
}
