import type { RootState } from '../../app/store';

export const selectServices = (state: RootState) => state.orderLabel.services;
export const selectServicesLoading = (state: RootState) => state.orderLabel.servicesStatus === 'loading';
export const selectSavedAddresses = (state: RootState) => state.orderLabel.addresses;
export const selectAddressesLoading = (state: RootState) => state.orderLabel.addressesStatus === 'loading';
export const selectPrice = (state: RootState) => state.orderLabel.price;
export const selectIsPricing = (state: RootState) => state.orderLabel.isPricing;
export const selectSubmitStatus = (state: RootState) => state.orderLabel.submitStatus;
export const selectPdfName = (state: RootState) => state.orderLabel.pdfName;
export const selectUncertainAttempt = (state: RootState) => state.orderLabel.uncertainAttempt;
