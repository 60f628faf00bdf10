import type { AdminDashboardReply, DashboardActivity } from '@flatship/proto';
import { getJson } from '../../../app/http';

export type { AdminDashboardReply, DashboardActivity };

export const adminDashboardApi = {
  /** GET /api/admin/dashboard (admins only). */
  get: () => getJson<AdminDashboardReply>('admin/dashboard'),
};
