import type { PrintFormat } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface PrintSettingsState {
  /** The saved setting; null until it has been read. */
  labelFormat: PrintFormat | null;
  status: 'idle' | 'loading' | 'loaded' | 'saving' | 'saved' | 'failed';
  /** The server's confirmation after a save. */
  message: string | null;
  error: string | null;
}

const initialState: PrintSettingsState = { labelFormat: null, status: 'idle', message: null, error: null };

export const printSettingsSlice = createSlice({
  name: 'printSettings',
  initialState,
  reducers: {
    printSettingsRequested(state, _action: PayloadAction<{ userId: string }>) {
      if (state.status !== 'saving') state.status = 'loading';
      state.error = null;
      state.message = null;
    },
    printSettingsLoaded(state, action: PayloadAction<PrintFormat>) {
      state.labelFormat = action.payload;
      state.status = 'loaded';
    },
    printSettingsLoadFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
    printFormatSubmitted(state, _action: PayloadAction<{ userId: string; labelFormat: PrintFormat }>) {
      state.status = 'saving';
      state.error = null;
      state.message = null;
    },
    printFormatSaved(state, action: PayloadAction<{ labelFormat: PrintFormat; message: string }>) {
      state.labelFormat = action.payload.labelFormat;
      state.status = 'saved';
      state.message = action.payload.message;
    },
    printFormatSaveFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
  },
});

export const {
  printSettingsRequested,
  printSettingsLoaded,
  printSettingsLoadFailed,
  printFormatSubmitted,
  printFormatSaved,
  printFormatSaveFailed,
} = printSettingsSlice.actions;
export const printSettingsReducer = printSettingsSlice.reducer;
