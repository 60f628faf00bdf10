import type { AccountUpdateBody } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RequestStatus } from '../auth/auth-slice';

export interface AccountState {
  status: RequestStatus;
  /** The server's confirmation (e.g. 'Account updated successfully'). */
  message: string | null;
  error: string | null;
}

const initialState: AccountState = { status: 'idle', message: null, error: null };

export const accountSlice = createSlice({
  name: 'account',
  initialState,
  reducers: {
    accountUpdateSubmitted(state, _action: PayloadAction<AccountUpdateBody>) {
      state.status = 'loading';
      state.message = null;
      state.error = null;
    },
    accountUpdateSucceeded(state, action: PayloadAction<string>) {
      state.status = 'succeeded';
      state.message = action.payload;
    },
    accountUpdateFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
    accountFormOpened() {
      return initialState;
    },
  },
});

export const { accountUpdateSubmitted, accountUpdateSucceeded, accountUpdateFailed, accountFormOpened } =
  accountSlice.actions;
export const accountReducer = accountSlice.reducer;
