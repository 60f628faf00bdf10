import type {
  ConfiguredService,
  InitializeUserServicesReply,
  PriceRange,
  ServiceChangeReply,
  ToggleServiceBody,
  UpdatePricesBody,
} from '@flatship/proto';
import { getJson, patchJson, postJson, putJson } from '../../../app/http';

const id = (value: string) => encodeURIComponent(value);

/** A user's own service configuration (admins only), served by services-pricing. */
export const userServicesApi = {
  list: (userId: string) => getJson<ConfiguredService[]>(`userServices/${id(userId)}`),
  initialize: (userId: string) => postJson<InitializeUserServicesReply>(`userServices/${id(userId)}/initialize`, {}),
  toggle: (userId: string, serviceId: string, enabled: boolean) =>
    patchJson<ServiceChangeReply>(`userServices/${id(userId)}/${id(serviceId)}/toggle`, {
      enabled,
    } satisfies ToggleServiceBody),
  savePrices: (userId: string, serviceId: string, prices: PriceRange[]) =>
    putJson<ServiceChangeReply>(`userServices/${id(userId)}/${id(serviceId)}/prices`, {
      prices,
    } satisfies UpdatePricesBody),
};
