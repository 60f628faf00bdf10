import type { RankingsQuery, RankingsReply } from '@flatship/proto';
import { getJson } from '../../../app/http';

export type { RankingsQuery, RankingsReply };

/** GET /api/admin/user-volume-rankings (spec doc 3 §7); only the parts of the query that are set are sent. */
export function fetchRankings(query: RankingsQuery): Promise<RankingsReply> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return getJson<RankingsReply>(`admin/user-volume-rankings?${params.toString()}`);
}
