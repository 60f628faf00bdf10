import { createAction } from '@reduxjs/toolkit';

/**
 * A file is to open through a fresh download link; `path` from proto's download paths. `tab`: shown in a
 * new tab (a label PDF, served inline); `save`: saved where the browser saves downloads (a bulk order's
 * files, served as attachments), without a tab left behind.
 */
export const fileRequested = createAction<{ path: string; open: 'tab' | 'save' }>('downloads/fileRequested');
