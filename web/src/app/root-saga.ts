import type { SagaIterator } from 'redux-saga';
import { all, fork } from 'redux-saga/effects';
import { accountSaga } from '../features/account/account-saga';
import { authSaga } from '../features/auth/auth-saga';
import { dashboardSaga } from '../features/dashboard/dashboard-saga';

export function* rootSaga(): SagaIterator {
  yield all([fork(authSaga), fork(accountSaga), fork(dashboardSaga)]);
}
