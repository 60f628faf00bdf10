import type { SagaIterator } from 'redux-saga';
import { all, fork } from 'redux-saga/effects';
import { authSaga } from '../features/auth/auth-saga';
import { downloadsSaga } from '../features/downloads/downloads-saga';
import { liveChatSaga } from '../features/live-chat/live-chat-saga';
import { socketSaga } from './socket-saga';

/** The sagas every page needs; each area's own start when its pages load (`registerFeature`). */
export function* rootSaga(): SagaIterator {
  yield all([fork(authSaga), fork(downloadsSaga), fork(liveChatSaga), fork(socketSaga)]);
}
