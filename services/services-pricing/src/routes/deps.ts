import type {
  DefaultServicesRepo,
  DomainLogger,
  RawServiceSource,
  RawServicesRepo,
  Transactor,
  UserServicesRepo,
} from '../domain/ports';

/** Everything the use cases may ask for; each route hands on what its use case needs. */
export interface DomainDeps {
  source: RawServiceSource;
  transactor: Transactor;
  rawServices: RawServicesRepo;
  defaultServices: DefaultServicesRepo;
  userServices: UserServicesRepo;
  logger?: DomainLogger;
}
