import { AppError, type Knex, requireInternal, type ServiceApp } from '@flatship/kit';
import {
  DASHBOARD_PERIODS_INVALID,
  DashboardPeriodsQuerySchema,
  InternalUserStatsReplySchema,
  readDashboardPeriods,
} from '@flatship/proto';
import { createUserStatsRepo } from '../db/user-stats-repo';
import { getUserStats } from '../domain/get-user-stats';

/** GET /internal/stats/users: the admin dashboard's user figures (admin service only, shared secret). */
export function registerStatsRoutes(app: ServiceApp, db: Knex, internalSecret: string): void {
  const stats = createUserStatsRepo(db);
  app.get(
    '/internal/stats/users',
    {
      onRequest: [requireInternal(internalSecret)],
      schema: { querystring: DashboardPeriodsQuerySchema, response: { 200: InternalUserStatsReplySchema } },
    },
    (request) => {
      const periods = readDashboardPeriods(request.query);
      if (!periods) throw new AppError('VALIDATION_FAILED', DASHBOARD_PERIODS_INVALID);
      return getUserStats({ stats }, periods);
    },
  );
}
