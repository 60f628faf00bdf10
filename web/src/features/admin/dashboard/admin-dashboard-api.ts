import type {
  AdminDashboardReply,
  CarrierBalanceReply,
  CarrierConnectionReply,
  DashboardActivity,
} from '@flatship/proto';
import { getJson, postJson } from '../../../app/http';

export type { AdminDashboardReply, CarrierBalanceReply, CarrierConnectionReply, DashboardActivity };

export const adminDashboardApi = {
  /** GET /api/admin/dashboard (admins only). */
  get: () => getJson<AdminDashboardReply>('admin/dashboard'),
  /** GET /api/auth/api/balance (admins only): the carrier accounts, and whether one is below the server's threshold. */
  carrierBalance: () => getJson<CarrierBalanceReply>('auth/api/balance'),
  /** POST /api/admin/carriers/check (admins only): each enabled carrier called with the configured account. */
  checkCarriers: () => postJson<CarrierConnectionReply>('admin/carriers/check', {}),
};
