import type {
  AdminUserRow,
  InvitedUser,
  InvitedUsersReply,
  ReferralCodeReply,
  UserDetailsReply,
} from '@flatship/proto';
import { getJson, postJson } from '../../../app/http';

export type { AdminUserRow, InvitedUser };

export const referralApi = {
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
