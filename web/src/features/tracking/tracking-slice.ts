import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { LabelTrackingReply } from './tracking-api';

export interface TrackingState {
  /** The label whose events are shown; null when the dialog is closed. */
  labelId: string | null;
  /** Its tracking number, for the dialog's title before the events arrive. */
  trackingNumber: string;
  reply: LabelTrackingReply | null;
  isLoading: boolean;
  error: string | null;
}

const initialState: TrackingState = { labelId: null, trackingNumber: '', reply: null, isLoading: false, error: null };

export const trackingSlice = createSlice({
  name: 'tracking',
  initialState,
  reducers: {
    trackingOpened(_state, action: PayloadAction<{ labelId: string; trackingNumber: string }>) {
      return { ...initialState, ...action.payload, isLoading: true };
    },
    trackingLoaded(state, action: PayloadAction<LabelTrackingReply>) {
      if (state.labelId !== action.payload.labelId) return;
      state.reply = action.payload;
      state.isLoading = false;
    },
    trackingFailed(state, action: PayloadAction<{ labelId: string; error: string }>) {
      if (state.labelId !== action.payload.labelId) return;
      state.error = action.payload.error;
      state.isLoading = false;
    },
    trackingClosed() {
      return initialState;
    },
  },
});

export const { trackingOpened, trackingLoaded, trackingFailed, trackingClosed } = trackingSlice.actions;
export const trackingReducer = trackingSlice.reducer;
