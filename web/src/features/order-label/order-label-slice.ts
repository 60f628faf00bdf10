import type { Address, AvailableService, OrderCreateBody } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type LoadStatus = 'idle' | 'loading' | 'loaded';
export type SubmitStatus = 'idle' | 'submitting' | 'succeeded' | 'failed';

/** A purchase whose outcome is unknown (the answer was lost): the same form retried reuses its key. */
export interface UncertainAttempt {
  key: string;
  fingerprint: string;
}

export interface OrderLabelState {
  services: AvailableService[];
  servicesStatus: LoadStatus;
  addresses: Address[];
  addressesStatus: LoadStatus;
  price: number;
  isPricing: boolean;
  submitStatus: SubmitStatus;
  pdfName: string | null;
  uncertainAttempt: UncertainAttempt | null;
}

export interface PriceRequest {
  serviceName: string;
  weight: number;
}

const initialState: OrderLabelState = {
  services: [],
  servicesStatus: 'idle',
  addresses: [],
  addressesStatus: 'idle',
  price: 0,
  isPricing: false,
  submitStatus: 'idle',
  pdfName: null,
  uncertainAttempt: null,
};

export const orderLabelSlice = createSlice({
  name: 'orderLabel',
  initialState,
  reducers: {
    /** The page opened for this user id: load its services and saved addresses. */
    orderLabelOpened(state, _action: PayloadAction<string>) {
      state.servicesStatus = 'loading';
      state.addressesStatus = 'loading';
      state.price = 0;
      if (state.submitStatus !== 'submitting') state.submitStatus = 'idle';
    },
    servicesLoaded(state, action: PayloadAction<AvailableService[]>) {
      state.services = action.payload;
      state.servicesStatus = 'loaded';
    },
    addressesLoaded(state, action: PayloadAction<Address[]>) {
      state.addresses = action.payload;
      state.addressesStatus = 'loaded';
    },
    priceRequested(state, _action: PayloadAction<PriceRequest>) {
      state.isPricing = true;
    },
    priceLoaded(state, action: PayloadAction<number>) {
      state.price = action.payload;
      state.isPricing = false;
    },
    labelOrderSubmitted(state, _action: PayloadAction<OrderCreateBody>) {
      state.submitStatus = 'submitting';
    },
    labelOrderSucceeded(state, action: PayloadAction<{ pdfName: string | null }>) {
      state.submitStatus = 'succeeded';
      state.pdfName = action.payload.pdfName;
      state.uncertainAttempt = null;
    },
    labelOrderFailed(state, action: PayloadAction<{ uncertainAttempt: UncertainAttempt | null }>) {
      state.submitStatus = 'failed';
      state.uncertainAttempt = action.payload.uncertainAttempt;
    },
    successDialogClosed(state) {
      state.submitStatus = 'idle';
    },
  },
});

export const {
  orderLabelOpened,
  servicesLoaded,
  addressesLoaded,
  priceRequested,
  priceLoaded,
  labelOrderSubmitted,
  labelOrderSucceeded,
  labelOrderFailed,
  successDialogClosed,
} = orderLabelSlice.actions;
export const orderLabelReducer = orderLabelSlice.reducer;
