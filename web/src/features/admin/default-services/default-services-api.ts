import type { ConfiguredService, PriceRange, RawService, ServiceChangeReply } from '@flatship/proto';
import { getJson, patchJson, postEmptyJson, putJson } from '../../../app/http';

export type { ConfiguredService, PriceRange, RawService, ServiceChangeReply };

const servicePath = (id: string, action: string) => `defaultServices/${encodeURIComponent(id)}/${action}`;

export const defaultServicesApi = {
  /** GET /api/defaultServices */
  list: () => getJson<ConfiguredService[]>('defaultServices'),
  /** GET /api/rawServices: the carrier's own data, shown on each card. */
  listRaw: () => getJson<RawService[]>('rawServices'),
  /** POST /api/defaultServices/sync: empty body declared JSON (spec doc 3 §7); answers the new list. */
  sync: () => postEmptyJson<ConfiguredService[]>('defaultServices/sync'),
  /** PATCH /api/defaultServices/{id}/toggle */
  toggle: (id: string, enabled: boolean) => patchJson<ServiceChangeReply>(servicePath(id, 'toggle'), { enabled }),
  /** PUT /api/defaultServices/{id}/prices */
  updatePrices: (id: string, prices: PriceRange[]) =>
    putJson<ServiceChangeReply>(servicePath(id, 'prices'), { prices }),
  /** PUT /api/defaultServices/{id}/name */
  rename: (id: string, name: string) => putJson<ServiceChangeReply>(servicePath(id, 'name'), { name }),
};
