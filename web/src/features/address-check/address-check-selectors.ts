import type { RootState } from '../../app/store';

const slice = (state: RootState) => state.addressCheck;

export const selectAddressAnswer = (state: RootState, key: string) => slice(state).answers[key];
export const selectIsAddressKept = (state: RootState, key: string) => slice(state).kept[key] === true;
