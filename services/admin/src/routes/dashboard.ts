import type { ServiceApp } from '@flatship/kit';
import { AdminDashboardReplySchema } from '@flatship/proto';
import { getDashboard } from '../domain/dashboard/get-dashboard';
import type { DashboardDeps } from '../domain/dashboard/ports';

/** GET /api/admin/dashboard: the live figures of the admin dashboard (spec doc 3 §2). Admins only. */
export function registerDashboardRoutes(app: ServiceApp, deps: DashboardDeps): void {
  app.get(
    '/api/admin/dashboard',
    { onRequest: [app.requireAdmin], schema: { response: { 200: AdminDashboardReplySchema } } },
    (request) => getDashboard(deps, { requestId: request.id }),
  );
}
