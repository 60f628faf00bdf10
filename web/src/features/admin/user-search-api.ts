import type { AdminUserRow, AdminUsersReply } from '@flatship/proto';
import { getJson } from '../../app/http';

/** How many users one search brings into a user picker. */
export const USER_SEARCH_LIMIT = 10;

/** Typing pauses this long before the server is asked, so each key press is not a request. */
export const USER_SEARCH_DEBOUNCE_MS = 300;

/** GET /api/auth/users?search&limit=10: a picker's options, matched on name, email or referral code. */
export async function searchUsers(search: string): Promise<AdminUserRow[]> {
  const query = new URLSearchParams({ search: search.trim(), limit: String(USER_SEARCH_LIMIT) });
  return (await getJson<AdminUsersReply>(`auth/users?${query}`)).users;
}
