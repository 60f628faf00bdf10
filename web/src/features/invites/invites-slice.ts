import type { ReferralBonusTerms } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { InvitedUser } from './invites-api';

export interface InvitesState {
  isLoading: boolean;
  referralCode: string;
  invitedUsers: InvitedUser[];
  /** The referral bonus each invitation can bring; null when there is none, or it could not be read. */
  terms: ReferralBonusTerms | null;
  /** The load failed: the page says so instead of showing an empty table as if nobody had joined. */
  error: string | null;
  /** The user whose invites are shown, so another user's never flash on screen. */
  userId: string | null;
}

const initialState: InvitesState = {
  isLoading: false,
  referralCode: '',
  invitedUsers: [],
  terms: null,
  error: null,
  userId: null,
};

export const invitesSlice = createSlice({
  name: 'invites',
  initialState,
  reducers: {
    /** The user id whose referral code and invited users are read. */
    invitesRequested(state, action: PayloadAction<string>) {
      if (state.userId !== action.payload) {
        state.referralCode = '';
        state.invitedUsers = [];
      }
      state.userId = action.payload;
      state.isLoading = true;
      state.error = null;
    },
    invitesLoaded(
      state,
      action: PayloadAction<{ referralCode: string; invitedUsers: InvitedUser[]; terms: ReferralBonusTerms | null }>,
    ) {
      state.referralCode = action.payload.referralCode;
      state.invitedUsers = action.payload.invitedUsers;
      state.terms = action.payload.terms;
      state.isLoading = false;
    },
    invitesFailed(state, action: PayloadAction<string>) {
      state.isLoading = false;
      state.error = action.payload;
    },
  },
});

export const { invitesRequested, invitesLoaded, invitesFailed } = invitesSlice.actions;
export const invitesReducer = invitesSlice.reducer;
