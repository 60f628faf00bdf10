import type {
  AdminUserRow,
  AdminUsersReply,
  InvitedUser,
  InvitedUsersReply,
  ReferralCodeReply,
  UserDetailsReply,
} from '@flatship/proto';
import { getJson, postJson } from '../../../app/http';

export type { AdminUserRow, InvitedUser };

/** How many users one search brings into the picker. */
export const USER_SEARCH_LIMIT = 10;

export const referralApi = {
  /** GET /api/auth/users?search&limit=10: the picker's options, matched on name, email or code. */
  searchUsers: async (search: string): Promise<AdminUserRow[]> => {
    const query = new URLSearchParams({ search: search.trim(), limit: String(USER_SEARCH_LIMIT) });
    return (await getJson<AdminUsersReply>(`auth/users?${query}`)).users;
  },
  /** GET /api/invite/referral/{userId} */
  referralCode: async (userId: string): Promise<string> =>
    (await getJson<ReferralCodeReply>(`invite/referral/${encodeURIComponent(userId)}`)).referralCode,
  /** GET /api/invite/{userId} */
  invitedUsers: async (userId: string): Promise<InvitedUser[]> =>
    (await getJson<InvitedUsersReply>(`invite/${encodeURIComponent(userId)}`)).invitedUsers,
  /** POST /api/auth/users/details/{id} with only the code: the balance is left as it is. */
  setReferralCode: (userId: string, referralCode: string) =>
    postJson<UserDetailsReply>(`auth/users/details/${encodeURIComponent(userId)}`, { referralCode }),
};
