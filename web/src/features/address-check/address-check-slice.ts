import type { AddressCheck, AddressToCheck } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Which address of a form is being checked: each has its own wait for the typing to stop. */
export type CheckSide = 'from' | 'to';

export interface AddressCheckState {
  /** The carrier's answers, by address key (`addressKey`): going back to an address asks nothing. */
  answers: Record<string, AddressCheck>;
  /** The address each side is waiting on an answer for. */
  waiting: Partial<Record<CheckSide, string>>;
  /** Addresses whose correction the user declined ("Keep mine"). */
  kept: Record<string, true>;
}

const initialState: AddressCheckState = { answers: {}, waiting: {}, kept: {} };

/** One key per address as a check sees it: case and surrounding spaces do not make another address. */
export const addressKey = (a: AddressToCheck): string =>
  [a.street1, a.street2, a.city, a.state, a.zip]
    .map((v) =>
      String(v ?? '')
        .trim()
        .toUpperCase(),
    )
    .join('|');

export const addressCheckSlice = createSlice({
  name: 'addressCheck',
  initialState,
  reducers: {
    /** The side's address is complete: check it once the user stops typing. */
    addressCheckRequested(
      state,
      action: PayloadAction<{ side: CheckSide; key: string; address: AddressToCheck; serviceUid?: string }>,
    ) {
      state.waiting[action.payload.side] = action.payload.key;
    },
    addressChecked(state, action: PayloadAction<{ side: CheckSide; key: string; check: AddressCheck }>) {
      const { side, key, check } = action.payload;
      state.answers[key] = check;
      if (state.waiting[side] === key) delete state.waiting[side];
    },
    addressKept(state, action: PayloadAction<string>) {
      state.kept[action.payload] = true;
    },
    /** The suggestion taken is known good: using it asks the carrier nothing more. */
    suggestionUsed(state, action: PayloadAction<{ key: string; check: AddressCheck }>) {
      state.answers[action.payload.key] = action.payload.check;
    },
  },
});

export const { addressCheckRequested, addressChecked, addressKept, suggestionUsed } = addressCheckSlice.actions;
export const addressCheckReducer = addressCheckSlice.reducer;
