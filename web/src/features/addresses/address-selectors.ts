import type { RootState } from '../../app/store';

export const selectAddresses = (state: RootState) => state.addresses.items;
export const selectAddressesStatus = (state: RootState) => state.addresses.status;
