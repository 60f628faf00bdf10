import type { ServiceApp } from '@flatship/kit';
import { RankingsQuerySchema, RankingsReplySchema } from '@flatship/proto';
import { type GetRankingsDeps, getRankings } from '../domain/rankings/get-rankings';

/** User volume rankings (spec doc 3 §2, §7): admins only. */
export function registerRankingRoutes(app: ServiceApp, deps: GetRankingsDeps): void {
  app.get(
    '/api/admin/user-volume-rankings',
    {
      onRequest: [app.requireAdmin],
      schema: { querystring: RankingsQuerySchema, response: { 200: RankingsReplySchema } },
    },
    async (request) => getRankings(deps, request.query, { requestId: request.id }),
  );
}
