import type { SagaIterator } from 'redux-saga';
import { call, select, takeLatest } from 'redux-saga/effects';
import type { RootState } from '../../app/store';
import {
  impersonationEnded,
  impersonationStarted,
  loginSucceeded,
  logoutRequested,
  registerSucceeded,
  sessionEnded,
  sessionRefreshed,
  sessionVerified,
  sessionVerifyFailed,
} from '../auth/auth-slice';
import { chatwootPort } from './chatwoot-port';
import { type ChatwootIdentity, type ChatwootWidgetConfig, liveChatApi } from './live-chat-api';

/** Whoever signs in, is verified, or becomes someone else (login-as) is introduced to the chat again. */
const SESSION_CHANGES = [
  loginSucceeded.type,
  registerSucceeded.type,
  sessionVerified.type,
  sessionRefreshed.type,
  impersonationStarted.type,
  impersonationEnded.type,
  sessionEnded.type,
  sessionVerifyFailed.type,
];

const selectSessionUserId = (state: RootState) => (state.auth.token ? (state.auth.user?._id ?? null) : null);

/**
 * Live chat: only when the server names a Chatwoot widget. Without one, or when
 * anything about it fails, the app simply has no chat; nothing else is affected.
 */
export function* liveChatSaga(): SagaIterator {
  let widget: ChatwootWidgetConfig | null;
  try {
    widget = yield call(liveChatApi.widget);
  } catch (error) {
    console.warn('Live chat: the client configuration could not be read', error);
    return;
  }
  if (!widget) return;
  try {
    yield call(chatwootPort.load, widget);
  } catch (error) {
    console.error('Live chat: the widget could not be loaded', error);
    return;
  }

  /** The user the widget was told about, so a repeated verify does not introduce them again. */
  let identified: string | null = null;

  function* follow(): SagaIterator {
    const userId: string | null = yield select(selectSessionUserId);
    if (userId === identified) return;
    if (identified !== null) {
      // Chatwoot keeps one contact per browser: the previous one is forgotten before another is set.
      yield call(chatwootPort.reset);
      identified = null;
    }
    if (userId === null) return;
    try {
      const identity: ChatwootIdentity = yield call(liveChatApi.identity);
      yield call(chatwootPort.setUser, identity);
      identified = userId;
    } catch (error) {
      // The chat still works, as an anonymous visitor.
      console.warn('Live chat: the chat identity could not be read', error);
    }
  }

  yield call(follow);
  // Latest wins: only the session as it is now matters.
  yield takeLatest([...SESSION_CHANGES, logoutRequested.type], follow);
}
