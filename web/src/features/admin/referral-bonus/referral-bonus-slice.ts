import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AdminReferralBonusBody, AdminReferralBonusReply } from './referral-bonus-api';

export interface ReferralBonusSettingsState {
  settings: AdminReferralBonusReply | null;
  isLoading: boolean;
  /** The load failed: the form is not shown with made-up values. */
  loadError: string | null;
  isSaving: boolean;
  /** The server refused the last save: its message, shown with the form. */
  saveError: string | null;
}

const initialState: ReferralBonusSettingsState = {
  settings: null,
  isLoading: false,
  loadError: null,
  isSaving: false,
  saveError: null,
};

export const referralBonusSettingsSlice = createSlice({
  name: 'referralBonusSettings',
  initialState,
  reducers: {
    referralBonusSettingsRequested(state) {
      state.isLoading = true;
      state.loadError = null;
    },
    referralBonusSettingsLoaded(state, action: PayloadAction<AdminReferralBonusReply>) {
      state.isLoading = false;
      state.settings = action.payload;
    },
    referralBonusSettingsLoadFailed(state, action: PayloadAction<string>) {
      state.isLoading = false;
      state.loadError = action.payload;
    },
    referralBonusSettingsSaveRequested(state, _action: PayloadAction<AdminReferralBonusBody>) {
      state.isSaving = true;
      state.saveError = null;
    },
    referralBonusSettingsSaved(state, action: PayloadAction<AdminReferralBonusReply>) {
      state.isSaving = false;
      state.settings = action.payload;
    },
    referralBonusSettingsSaveFailed(state, action: PayloadAction<string>) {
      state.isSaving = false;
      state.saveError = action.payload;
    },
  },
});

export const {
  referralBonusSettingsRequested,
  referralBonusSettingsLoaded,
  referralBonusSettingsLoadFailed,
  referralBonusSettingsSaveRequested,
  referralBonusSettingsSaved,
  referralBonusSettingsSaveFailed,
} = referralBonusSettingsSlice.actions;
export const referralBonusSettingsReducer = referralBonusSettingsSlice.reducer;

export const selectReferralBonusSettings = (state: { referralBonusSettings: ReferralBonusSettingsState }) =>
  state.referralBonusSettings;
