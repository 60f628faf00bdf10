import type { AdminDashboardReply, CarrierBalanceReply, DashboardActivity } from '@flatship/proto';
import { getJson } from '../../../app/http';

export type { AdminDashboardReply, CarrierBalanceReply, DashboardActivity };

export const adminDashboardApi = {
  /** GET /api/admin/dashboard (admins only). */
  get: () => getJson<AdminDashboardReply>('admin/dashboard'),
  /** GET /api/auth/api/balance (admins only): the carrier accounts, and whether one is below the server's threshold. */
  carrierBalance: () => getJson<CarrierBalanceReply>('auth/api/balance'),
};
