import type { ConfiguredService, PriceRange } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface UserServicesState {
  /** The user whose services the overlay shows; null while it is closed. */
  userId: string | null;
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  services: ConfiguredService[];
  /** Services with a change in flight. */
  busyIds: string[];
}

const initialState: UserServicesState = { userId: null, status: 'idle', services: [], busyIds: [] };

export interface ServiceTarget {
  userId: string;
  serviceId: string;
}

export const userServicesSlice = createSlice({
  name: 'userServices',
  initialState,
  reducers: {
    userServicesOpened(state, action: PayloadAction<string>) {
      state.userId = action.payload;
      state.status = 'loading';
      state.services = [];
      state.busyIds = [];
    },
    userServicesLoaded(state, action: PayloadAction<{ userId: string; services: ConfiguredService[] }>) {
      if (action.payload.userId !== state.userId) return;
      state.status = 'succeeded';
      state.services = action.payload.services;
    },
    userServicesLoadFailed(state, action: PayloadAction<string>) {
      if (action.payload === state.userId) state.status = 'failed';
    },
    userServicesClosed() {
      return initialState;
    },
    serviceToggleSubmitted(state, action: PayloadAction<ServiceTarget & { enabled: boolean }>) {
      state.busyIds.push(action.payload.serviceId);
    },
    servicePricesSubmitted(state, action: PayloadAction<ServiceTarget & { prices: PriceRange[] }>) {
      state.busyIds.push(action.payload.serviceId);
    },
    /** A change ended; `service` is the service as the server now has it, when it was saved. */
    serviceChangeSettled(state, action: PayloadAction<ServiceTarget & { service?: ConfiguredService }>) {
      const { userId, serviceId, service } = action.payload;
      if (userId !== state.userId) return;
      state.busyIds = state.busyIds.filter((id) => id !== serviceId);
      if (service) state.services = state.services.map((s) => (s._id === serviceId ? service : s));
    },
  },
});

export const {
  userServicesOpened,
  userServicesLoaded,
  userServicesLoadFailed,
  userServicesClosed,
  serviceToggleSubmitted,
  servicePricesSubmitted,
  serviceChangeSettled,
} = userServicesSlice.actions;
export const userServicesReducer = userServicesSlice.reducer;

export const selectUserServices = (state: { userServices: UserServicesState }) => state.userServices;
