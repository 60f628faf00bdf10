import type {
  AdminDashboardReply,
  CarrierBalanceReply,
  CarrierConnectionReply,
  CarrierRoutesReply,
  CarrierRoutesUpdate,
  DashboardActivity,
} from '@flatship/proto';
import { getJson, postJson, putJson } from '../../../app/http';

export type { AdminDashboardReply, CarrierBalanceReply, CarrierConnectionReply, CarrierRoutesReply, DashboardActivity };

export const adminDashboardApi = {
  /** GET /api/admin/dashboard (admins only). */
  get: () => getJson<AdminDashboardReply>('admin/dashboard'),
  /** GET /api/auth/api/balance (admins only): the carrier accounts, and whether one is below the server's threshold. */
  carrierBalance: () => getJson<CarrierBalanceReply>('auth/api/balance'),
  /** GET /api/admin/carriers/routes (admins only): which carrier sells each service, then which stand by. */
  carrierRoutes: () => getJson<CarrierRoutesReply>('admin/carriers/routes'),
  /** PUT /api/admin/carriers/routes (admins only): switches the services named; answers every service's route. */
  switchCarrierRoutes: (body: CarrierRoutesUpdate) => putJson<CarrierRoutesReply>('admin/carriers/routes', body),
  /** POST /api/admin/carriers/check (admins only): each enabled carrier called with the configured account. */
  checkCarriers: () => postJson<CarrierConnectionReply>('admin/carriers/check', {}),
};
