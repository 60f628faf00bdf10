import type { Address } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type AddressesStatus = 'idle' | 'loading' | 'loaded' | 'failed';

/** The address form's fields, as the server takes them (doc 2 §3: country is US only). */
export interface AddressFields {
  address_id: string;
  name: string;
  company: string;
  phone: string;
  street: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export interface AddressesState {
  items: Address[];
  status: AddressesStatus;
}

/** Each write carries the id of the pending request its saga settles (see data-table-requests.ts). */
export interface AddressAddRequest {
  requestId: string;
  userId: string;
  fields: AddressFields;
}
export interface AddressUpdateRequest extends AddressAddRequest {
  id: string;
}
export interface AddressDeleteRequest {
  requestId: string;
  userId: string;
  id: string;
}

const initialState: AddressesState = { items: [], status: 'idle' };

export const addressesSlice = createSlice({
  name: 'addresses',
  initialState,
  reducers: {
    addressesRequested(state, _action: PayloadAction<string>) {
      state.status = 'loading';
    },
    addressesLoaded(state, action: PayloadAction<Address[]>) {
      state.items = action.payload;
      state.status = 'loaded';
    },
    /** Spec doc 1 §8: a failed address fetch yields an empty list. */
    addressesLoadFailed(state) {
      state.items = [];
      state.status = 'failed';
    },
    addressAddSubmitted(_state, _action: PayloadAction<AddressAddRequest>) {},
    addressAdded(state, action: PayloadAction<Address>) {
      state.items.push(action.payload);
    },
    addressUpdateSubmitted(_state, _action: PayloadAction<AddressUpdateRequest>) {},
    addressUpdated(state, action: PayloadAction<Address>) {
      const at = state.items.findIndex((a) => a._id === action.payload._id);
      if (at >= 0) state.items[at] = action.payload;
    },
    addressDeleteSubmitted(_state, _action: PayloadAction<AddressDeleteRequest>) {},
    addressDeleted(state, action: PayloadAction<string>) {
      state.items = state.items.filter((a) => a._id !== action.payload);
    },
  },
});

export const {
  addressesRequested,
  addressesLoaded,
  addressesLoadFailed,
  addressAddSubmitted,
  addressAdded,
  addressUpdateSubmitted,
  addressUpdated,
  addressDeleteSubmitted,
  addressDeleted,
} = addressesSlice.actions;
export const addressesReducer = addressesSlice.reducer;
