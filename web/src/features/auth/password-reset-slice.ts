import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type RequestStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface PasswordResetState {
  /** Asking for a link by email. */
  linkStatus: RequestStatus;
  linkMessage: string | null;
  linkError: string | null;
  /** Setting the new password through a link. */
  resetStatus: RequestStatus;
  resetMessage: string | null;
  resetError: string | null;
}

const initialState: PasswordResetState = {
  linkStatus: 'idle',
  linkMessage: null,
  linkError: null,
  resetStatus: 'idle',
  resetMessage: null,
  resetError: null,
};

export const passwordResetSlice = createSlice({
  name: 'passwordReset',
  initialState,
  reducers: {
    /** A reset page was opened: nothing from an earlier visit is shown. */
    passwordResetFormOpened: () => initialState,
    resetLinkRequested(state, _action: PayloadAction<string>) {
      state.linkStatus = 'loading';
      state.linkError = null;
    },
    resetLinkSent(state, action: PayloadAction<string>) {
      state.linkStatus = 'succeeded';
      state.linkMessage = action.payload;
    },
    resetLinkFailed(state, action: PayloadAction<string>) {
      state.linkStatus = 'failed';
      state.linkError = action.payload;
    },
    newPasswordSubmitted(state, _action: PayloadAction<{ token: string; password: string }>) {
      state.resetStatus = 'loading';
      state.resetError = null;
    },
    newPasswordSaved(state, action: PayloadAction<string>) {
      state.resetStatus = 'succeeded';
      state.resetMessage = action.payload;
    },
    newPasswordFailed(state, action: PayloadAction<string>) {
      state.resetStatus = 'failed';
      state.resetError = action.payload;
    },
  },
});

export const {
  passwordResetFormOpened,
  resetLinkRequested,
  resetLinkSent,
  resetLinkFailed,
  newPasswordSubmitted,
  newPasswordSaved,
  newPasswordFailed,
} = passwordResetSlice.actions;
export const passwordResetReducer = passwordResetSlice.reducer;
