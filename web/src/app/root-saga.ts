import type { SagaIterator } from 'redux-saga';
import { all, fork } from 'redux-saga/effects';
import { accountSaga } from '../features/account/account-saga';
import { addressSaga } from '../features/addresses/address-saga';
import { authSaga } from '../features/auth/auth-saga';
import { dashboardSaga } from '../features/dashboard/dashboard-saga';
import { orderLabelSaga } from '../features/order-label/order-label-saga';
import { ordersSaga } from '../features/orders/orders-saga';

export function* rootSaga(): SagaIterator {
  yield all([
    fork(authSaga),
    fork(accountSaga),
    fork(addressSaga),
    fork(dashboardSaga),
    fork(orderLabelSaga),
    fork(ordersSaga),
  ]);
}
