import type { RootState } from '../../app/store';

export const selectAccountStatus = (state: RootState) => state.account.status;
export const selectAccountMessage = (state: RootState) => state.account.message;
export const selectAccountError = (state: RootState) => state.account.error;
