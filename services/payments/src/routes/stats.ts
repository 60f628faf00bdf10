import { AppError, type Knex, requireInternal, type ServiceApp } from '@flatship/kit';
import {
  DASHBOARD_PERIODS_INVALID,
  DashboardPeriodsQuerySchema,
  InternalDepositStatsReplySchema,
  readDashboardPeriods,
} from '@flatship/proto';
import { createDepositStatsRepo } from '../db/deposit-stats-repo';
import { getDepositStats } from '../domain/get-deposit-stats';

/** GET /internal/stats/deposits: the admin dashboard's deposit figures (admin service only, shared secret). */
export function registerStatsRoutes(app: ServiceApp, db: Knex, internalSecret: string): void {
  const stats = createDepositStatsRepo(db);
  app.get(
    '/internal/stats/deposits',
    {
      onRequest: [requireInternal(internalSecret)],
      schema: { querystring: DashboardPeriodsQuerySchema, response: { 200: InternalDepositStatsReplySchema } },
    },
    (request) => {
      const periods = readDashboardPeriods(request.query);
      if (!periods) throw new AppError('VALIDATION_FAILED', DASHBOARD_PERIODS_INVALID);
      return getDepositStats({ stats }, periods);
    },
  );
}
