import type { RankingsQuery, RankingsReply } from '@flatship/proto';
import { getJson } from '../../../app/http';
import { queryString } from '../../../app/query-string';

export type { RankingsQuery, RankingsReply };

/** GET /api/admin/user-volume-rankings (spec doc 3 §7); only the parts of the query that are set are sent. */
export function fetchRankings(query: RankingsQuery): Promise<RankingsReply> {
  return getJson<RankingsReply>(`admin/user-volume-rankings?${queryString(query)}`);
}
