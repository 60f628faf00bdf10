import { createAction } from '@reduxjs/toolkit';

/** A file (a label PDF, a bulk order's file) is to open in a new tab; `path` from proto's download paths. */
export const fileTabRequested = createAction<{ path: string }>('downloads/fileTabRequested');
