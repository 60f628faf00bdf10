import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: string;
  message: string;
  /** A second line under the message, e.g. the server's own words. */
  detail?: string;
  kind: ToastKind;
  /** Milliseconds before it closes by itself. */
  duration: number;
}

/** Spec: toasts close after 10 s unless a screen asks otherwise (e.g. 3 s for SKU messages). */
export const DEFAULT_TOAST_DURATION = 10_000;

/**
 * How many toasts show at once. A burst (a file's load and its warnings, then a reset and the next file) would
 * otherwise stack up the screen over the dialog it speaks about; the oldest make way, as they would close soon.
 */
export const MAX_TOASTS = 4;

export interface ToastState {
  toasts: Toast[];
}

const initialState: ToastState = { toasts: [] };

export const toastSlice = createSlice({
  name: 'toast',
  initialState,
  reducers: {
    toastShown: {
      reducer(state, action: PayloadAction<Toast>) {
        state.toasts.push(action.payload);
        if (state.toasts.length > MAX_TOASTS) state.toasts.splice(0, state.toasts.length - MAX_TOASTS);
      },
      prepare(input: { message: string; detail?: string | undefined; kind?: ToastKind; duration?: number }) {
        return {
          payload: {
            id: nanoid(),
            message: input.message,
            ...(input.detail ? { detail: input.detail } : {}),
            kind: input.kind ?? 'info',
            duration: input.duration ?? DEFAULT_TOAST_DURATION,
          },
        };
      },
    },
    toastDismissed(state, action: PayloadAction<string>) {
      state.toasts = state.toasts.filter((t) => t.id !== action.payload);
    },
  },
});

export const { toastShown, toastDismissed } = toastSlice.actions;
export const toastReducer = toastSlice.reducer;
export const selectToasts = (state: { toast: ToastState }) => state.toast.toasts;
