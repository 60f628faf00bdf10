import type { RootState } from '../../app/store';

export const selectReferralCode = (state: RootState) => state.invites.referralCode;
export const selectInvitedUsers = (state: RootState) => state.invites.invitedUsers;
export const selectInvitesLoading = (state: RootState) => state.invites.isLoading;
export const selectInvitesError = (state: RootState) => state.invites.error;
export const selectInvitesTerms = (state: RootState) => state.invites.terms;
