import type { RootState } from '../../app/store';

export const selectDeposits = (state: RootState) => state.deposits.deposits;
export const selectDepositsTotal = (state: RootState) => state.deposits.totalCount;
export const selectDepositsPage = (state: RootState) => state.deposits.page;
export const selectDepositsUserId = (state: RootState) => state.deposits.userId;
export const selectDepositsLoading = (state: RootState) => state.deposits.isLoading;
export const selectIsToppingUp = (state: RootState) => state.deposits.isToppingUp;
