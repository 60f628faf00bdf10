import type { Tx } from '@flatship/kit';
import type { CarrierServiceInfo, PriceBand, RawServiceRecord, ServiceRecord } from './types';

export type { DomainLogger, Transactor, Tx } from '@flatship/kit';
export type { CarrierServiceInfo, PriceBand, RawServiceRecord, ServiceRecord, ServiceStatus } from './types';

/** Where the carrier's current services come from (the carriers library at the composition root). */
export interface RawServiceSource {
  list(): CarrierServiceInfo[] | Promise<CarrierServiceInfo[]>;
}

export interface RawServicesRepo {
  list(tx?: Tx): Promise<RawServiceRecord[]>;
  /** Inserts new services and refreshes known ones, marking all of them active. */
  upsertActive(services: CarrierServiceInfo[], tx?: Tx): Promise<void>;
  /** Every service not in `uids` becomes inactive. */
  markInactiveExcept(uids: string[], tx?: Tx): Promise<void>;
}

export interface NewService {
  uid: string;
  name: string;
  category: string;
  maxWeight: number;
  enabled: boolean;
  prices: PriceBand[];
}

/** What a carrier-side change may alter on a configured service. */
export interface ServiceShape {
  category: string;
  maxWeight: number;
  prices: PriceBand[];
}

export interface DefaultServicesRepo {
  list(tx?: Tx): Promise<ServiceRecord[]>;
  findById(id: string, tx?: Tx): Promise<ServiceRecord | null>;
  /** Creates the services whose uid has no default yet; existing ones are left alone. */
  insertMissing(services: NewService[], tx?: Tx): Promise<void>;
  setEnabled(id: string, enabled: boolean, tx?: Tx): Promise<ServiceRecord | null>;
  setPrices(id: string, prices: PriceBand[], tx?: Tx): Promise<ServiceRecord | null>;
  setName(id: string, name: string, tx?: Tx): Promise<ServiceRecord | null>;
  setShape(id: string, shape: ServiceShape, tx?: Tx): Promise<void>;
  /** Another default (not `exceptId`) already has this name, compared case-insensitively. */
  isNameTaken(name: string, exceptId: string, tx?: Tx): Promise<boolean>;
}

export interface UserServicesRepo {
  listByUser(userId: string, tx?: Tx): Promise<ServiceRecord[]>;
  /**
   * The user's own services when they have any, otherwise the default ones
   * (DESIGN §8), in one round trip: every quote reads them.
   */
  listEffective(userId: string, tx?: Tx): Promise<ServiceRecord[]>;
  /** Every user's copy of one carrier service (for carrier-side changes). */
  listByUid(uid: string, tx?: Tx): Promise<ServiceRecord[]>;
  /** The user's service by its id or its uid. */
  findForUser(userId: string, idOrUid: string, tx?: Tx): Promise<ServiceRecord | null>;
  /** Copies every default service the user has no copy of yet, enabled or not. */
  copyDefaults(userId: string, tx?: Tx): Promise<void>;
  setEnabled(id: string, enabled: boolean, tx?: Tx): Promise<ServiceRecord | null>;
  setPrices(id: string, prices: PriceBand[], tx?: Tx): Promise<ServiceRecord | null>;
  setShape(id: string, shape: ServiceShape, tx?: Tx): Promise<void>;
}
