import type { RootState } from '../../app/store';

export const selectPasswordReset = (state: RootState) => state.passwordReset;
