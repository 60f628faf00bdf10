import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AdminUserRow, InvitedUser } from './referral-api';

export interface ReferralState {
  selected: AdminUserRow | null;
  referralCode: string | null;
  isLoadingCode: boolean;
  invitedUsers: InvitedUser[];
  isLoadingInvited: boolean;
  /** A load failed: the section shows this instead of stale or empty data. */
  codeError: string | null;
  invitedError: string | null;
  isSaving: boolean;
}

const initialState: ReferralState = {
  selected: null,
  referralCode: null,
  isLoadingCode: false,
  invitedUsers: [],
  isLoadingInvited: false,
  codeError: null,
  invitedError: null,
  isSaving: false,
};

export const referralSlice = createSlice({
  name: 'referral',
  initialState,
  reducers: {
    referralUserSelected(state, action: PayloadAction<AdminUserRow>) {
      state.selected = action.payload;
      state.referralCode = null;
      state.invitedUsers = [];
      state.codeError = null;
      state.invitedError = null;
      state.isLoadingCode = true;
      state.isLoadingInvited = true;
    },
    referralCodeLoaded(state, action: PayloadAction<string>) {
      state.isLoadingCode = false;
      state.referralCode = action.payload;
    },
    referralCodeFailed(state, action: PayloadAction<string>) {
      state.isLoadingCode = false;
      state.codeError = action.payload;
    },
    invitedUsersLoaded(state, action: PayloadAction<InvitedUser[]>) {
      state.isLoadingInvited = false;
      state.invitedUsers = action.payload;
    },
    invitedUsersFailed(state, action: PayloadAction<string>) {
      state.isLoadingInvited = false;
      state.invitedError = action.payload;
    },
    referralCodeSaveRequested(state, _action: PayloadAction<{ userId: string; referralCode: string }>) {
      state.isSaving = true;
    },
    referralCodeSaved(state, action: PayloadAction<{ userId: string; referralCode: string }>) {
      state.isSaving = false;
      if (state.selected?._id !== action.payload.userId) return;
      state.referralCode = action.payload.referralCode;
      state.codeError = null;
      state.selected.referralCode = action.payload.referralCode;
    },
    referralCodeSaveFailed(state) {
      state.isSaving = false;
    },
  },
});

export const {
  referralUserSelected,
  referralCodeLoaded,
  referralCodeFailed,
  invitedUsersLoaded,
  invitedUsersFailed,
  referralCodeSaveRequested,
  referralCodeSaved,
  referralCodeSaveFailed,
} = referralSlice.actions;
export const referralReducer = referralSlice.reducer;

export const selectReferral = (state: { referral: ReferralState }) => state.referral;
