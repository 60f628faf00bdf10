import type { InvitedUser, InvitedUsersReply, ReferralCodeReply } from '@flatship/proto';
import { getJson } from '../../app/http';
import { queryString } from '../../app/query-string';

export type { InvitedUser };

/** Spec doc 2 §9: invited users are shown 7 a page. */
export const INVITED_USERS_PAGE_SIZE = 7;

/** Spec doc 2 §2: the invite link is the site origin plus /register?ref={code}. */
export function inviteLinkOf(origin: string, referralCode: string): string {
  return `${origin}/register?${queryString({ ref: referralCode })}`;
}

/** A reply read defensively: a missing list reads as empty, a missing code as none. */
function invitedUsersOf(reply: unknown): InvitedUser[] {
  const list = reply && typeof reply === 'object' ? (reply as Partial<InvitedUsersReply>).invitedUsers : undefined;
  return Array.isArray(list) ? list : [];
}

function referralCodeOf(reply: unknown): string {
  const code = reply && typeof reply === 'object' ? (reply as Partial<ReferralCodeReply>).referralCode : undefined;
  return typeof code === 'string' ? code : '';
}

export const invitesApi = {
  /** GET /api/invite/referral/{userId}: the user's own referral code. */
  referralCode: async (userId: string): Promise<string> =>
    referralCodeOf(await getJson<unknown>(`invite/referral/${encodeURIComponent(userId)}`)),
  /** GET /api/invite/{userId}: everyone who joined with the user's code, newest first. */
  invitedUsers: async (userId: string): Promise<InvitedUser[]> =>
    invitedUsersOf(await getJson<unknown>(`invite/${encodeURIComponent(userId)}`)),
};
