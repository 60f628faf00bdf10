import type { AdminUserRow, AdminUsersReply } from '@flatship/proto';
import { getJson } from '../../app/http';
import { queryString } from '../../app/query-string';

/** How many users one search brings into a user picker. */
export const USER_SEARCH_LIMIT = 10;

/** Typing pauses this long before the server is asked, so each key press is not a request. */
export const USER_SEARCH_DEBOUNCE_MS = 300;

/**
 * GET /api/auth/users?search&limit=10: a picker's options, matched on name, email or referral code.
 * Nothing typed sends no search, which the server reads as the empty one: the first users.
 */
export async function searchUsers(search: string): Promise<AdminUserRow[]> {
  const query = queryString({ search: search.trim(), limit: USER_SEARCH_LIMIT });
  return (await getJson<AdminUsersReply>(`auth/users?${query}`)).users;
}
