import type { DownloadTokenReply } from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, takeEvery } from 'redux-saga/effects';
import { errorMessage } from '../../app/server-message';
import { toastShown } from '../../components/toast-slice';
import { fileRequested } from './downloads-actions';
import { downloadsApi } from './downloads-api';

/** Spec doc 2 §7's toast fallback for a download. */
export const DOWNLOAD_FAILED = 'Download failed. Please try again.';
const PREPARING = 'Preparing your download…';

/**
 * A tab opened at once, while the click that asked for it is still being handled (a tab opened after
 * waiting for the link would be stopped as a pop-up). It shows a line of text until the link is ready.
 */
export function openPendingTab(): Window | null {
  const tab = window.open('', '_blank');
  if (!tab) return null;
  // The file is ours, but the tab has no business reaching back into the app.
  tab.opener = null;
  try {
    tab.document.title = PREPARING;
    tab.document.body.textContent = PREPARING;
  } catch {
    // Nothing to show it in: the tab still gets the file.
  }
  return tab;
}

function show(tab: Window | null, link: DownloadTokenReply): void {
  const url = new URL(link.url, window.location.origin).toString();
  if (tab) tab.location.replace(url);
  else window.open(url, '_blank', 'noopener');
}

/** Hands an attachment's link to the browser's downloads; the page stays where it is. */
export function saveFrom(link: DownloadTokenReply): void {
  const anchor = document.createElement('a');
  anchor.href = link.url;
  anchor.download = '';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/**
 * Opens the file through a fresh download link, in a new tab or as a download; a failure closes the
 * tab and says why.
 */
export function* openFile(action: PayloadAction<{ path: string; open: 'tab' | 'save' }>): SagaIterator {
  // First and synchronous: this runs inside the dispatch of the click (see openPendingTab).
  const tab: Window | null = action.payload.open === 'tab' ? yield call(openPendingTab) : null;
  try {
    const link: DownloadTokenReply = yield call(downloadsApi.link, action.payload.path);
    if (action.payload.open === 'save') yield call(saveFrom, link);
    else yield call(show, tab, link);
  } catch (error) {
    tab?.close();
    console.error('Download link failed', error);
    yield put(toastShown({ kind: 'error', message: errorMessage(error, DOWNLOAD_FAILED) }));
  }
}

export function* downloadsSaga(): SagaIterator {
  // Every click opens its own file.
  yield takeEvery(fileRequested.type, openFile);
}
