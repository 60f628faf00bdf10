import { AppError, type Knex, requireInternal, type ServiceApp } from '@flatship/kit';
import {
  DASHBOARD_PERIODS_INVALID,
  DashboardPeriodsQuerySchema,
  InternalLabelStatsReplySchema,
  readDashboardPeriods,
} from '@flatship/proto';
import { createLabelStatsRepo } from '../db/label-stats-repo';
import { getLabelStats } from '../domain/get-label-stats';

/** GET /internal/stats/labels: the admin dashboard's label figures (admin service only, shared secret). */
export function registerStatsRoutes(app: ServiceApp, db: Knex, internalSecret: string): void {
  const stats = createLabelStatsRepo(db);
  app.get(
    '/internal/stats/labels',
    {
      onRequest: [requireInternal(internalSecret)],
      schema: { querystring: DashboardPeriodsQuerySchema, response: { 200: InternalLabelStatsReplySchema } },
    },
    (request) => {
      const periods = readDashboardPeriods(request.query);
      if (!periods) throw new AppError('VALIDATION_FAILED', DASHBOARD_PERIODS_INVALID);
      return getLabelStats({ stats }, periods);
    },
  );
}
