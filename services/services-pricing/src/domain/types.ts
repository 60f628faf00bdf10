/** One weight range of a price list: whole pounds, price in cents. */
export interface PriceBand {
  fromWeight: number;
  toWeight: number;
  priceCents: number;
}

export type ServiceStatus = 'active' | 'inactive';

/** A service as the carrier offers it (the carriers library's `CarrierService`). */
export interface CarrierServiceInfo {
  uid: string;
  name: string;
  category: string;
  carrier: string;
  maxWeight: number;
}

export interface RawServiceRecord {
  id: string;
  uid: string;
  name: string;
  category: string;
  carrier: string;
  maxWeight: number;
  /** Inactive once the carrier no longer offers it. */
  status: ServiceStatus;
}

/** A default or per-user service; `status` is its raw service's. */
export interface ServiceRecord {
  id: string;
  uid: string;
  name: string;
  category: string;
  maxWeight: number;
  enabled: boolean;
  status: ServiceStatus;
  prices: PriceBand[];
}
