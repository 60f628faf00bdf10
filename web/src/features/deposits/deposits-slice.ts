import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Deposit } from './deposits-api';

export interface DepositsState {
  isLoading: boolean;
  deposits: Deposit[];
  totalCount: number;
  /** The page shown (1-based); a refresh after a payment reloads this one. */
  page: number;
  /** The user whose deposits are shown: a refresh never mixes in another user's. */
  userId: string | null;
  /** A top-up is being created or its payment window opened: the button waits. */
  isToppingUp: boolean;
}

const initialState: DepositsState = {
  isLoading: false,
  deposits: [],
  totalCount: 0,
  page: 1,
  userId: null,
  isToppingUp: false,
};

export interface DepositsRequest {
  userId: string;
  page: number;
}

export const depositsSlice = createSlice({
  name: 'deposits',
  initialState,
  reducers: {
    depositsRequested(state, action: PayloadAction<DepositsRequest>) {
      if (state.userId !== action.payload.userId) {
        state.deposits = [];
        state.totalCount = 0;
      }
      state.userId = action.payload.userId;
      state.page = action.payload.page;
      state.isLoading = true;
    },
    depositsLoaded(state, action: PayloadAction<{ deposits: Deposit[]; totalCount: number }>) {
      state.deposits = action.payload.deposits;
      state.totalCount = action.payload.totalCount;
      state.isLoading = false;
    },
    depositsFailed(state) {
      state.isLoading = false;
    },
    /** The payer's user id, or null without a session (the invoice is then a guest's). */
    topUpRequested(state, _action: PayloadAction<string | null>) {
      state.isToppingUp = true;
    },
    /** The attempt ended without a payment window: the button is ready again. */
    topUpFinished(state) {
      state.isToppingUp = false;
    },
    /** The payment window for `invoiceId` is open; the button is ready again for a later top-up. */
    paymentWindowOpened(state, _action: PayloadAction<string>) {
      state.isToppingUp = false;
    },
    /** The payment window was left or reported a payment; the list and balance are read again. */
    paymentWindowEvent(_state, _action: PayloadAction<'left' | 'complete'>) {},
  },
});

export const {
  depositsRequested,
  depositsLoaded,
  depositsFailed,
  topUpRequested,
  topUpFinished,
  paymentWindowOpened,
  paymentWindowEvent,
} = depositsSlice.actions;
export const depositsReducer = depositsSlice.reducer;
