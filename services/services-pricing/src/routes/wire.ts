import type { AvailableService, ConfiguredService, RawService } from '@flatship/proto';
import type { RawServiceRecord, ServiceRecord } from '../domain/ports';
import { toWirePrices } from '../domain/price-list';

export const toConfiguredService = (s: ServiceRecord): ConfiguredService => ({
  _id: s.id,
  uid: s.uid,
  name: s.name,
  category: s.category,
  maxWeight: s.maxWeight,
  status: s.status,
  enabled: s.enabled,
  prices: toWirePrices(s.prices),
});

export const toAvailableService = (s: ServiceRecord): AvailableService => ({
  uid: s.uid,
  name: s.name,
  category: s.category,
  maxWeight: s.maxWeight,
});

export const toRawService = (s: RawServiceRecord): RawService => ({
  _id: s.id,
  uid: s.uid,
  name: s.name,
  category: s.category,
  carrier: s.carrier,
  maxWeight: s.maxWeight,
  status: s.status,
});
