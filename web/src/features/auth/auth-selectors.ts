import type { RootState } from '../../app/store';

export const selectToken = (state: RootState) => state.auth.token;
export const selectUser = (state: RootState) => state.auth.user;
export const selectAuthStatus = (state: RootState) => state.auth.status;
export const selectAuthError = (state: RootState) => state.auth.error;
export const selectSessionStatus = (state: RootState) => state.auth.session;
export const selectIsAdmin = (state: RootState) => state.auth.user?.user_role === 'admin';
export const selectReferralStatus = (state: RootState) => state.auth.referral.status;
export const selectReferralError = (state: RootState) => state.auth.referral.error;
export const selectImpersonator = (state: RootState) => state.auth.impersonator;
export const selectReferralTerms = (state: RootState) => state.auth.referralTerms;
