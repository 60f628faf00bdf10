import type { SagaIterator } from 'redux-saga';
import { all, fork } from 'redux-saga/effects';
import { accountSaga } from '../features/account/account-saga';
import { addressSaga } from '../features/addresses/address-saga';
import { adminDashboardSaga } from '../features/admin/dashboard/admin-dashboard-saga';
import { defaultServicesSaga } from '../features/admin/default-services/default-services-saga';
import { orderLabelsSaga } from '../features/admin/order-labels/order-labels-saga';
import { rankingsSaga } from '../features/admin/rankings/rankings-saga';
import { referralSaga } from '../features/admin/referrals/referral-saga';
import { userServicesSaga } from '../features/admin/services/user-services-saga';
import { adminUsersSaga } from '../features/admin/users/admin-users-saga';
import { authSaga } from '../features/auth/auth-saga';
import { passwordResetSaga } from '../features/auth/password-reset-saga';
import { batchOrdersSaga } from '../features/batch-orders/batch-orders-saga';
import { bulkOrderSaga } from '../features/bulk-order/bulk-order-saga';
import { bulkProgressSaga } from '../features/bulk-progress/bulk-progress-saga';
import { dashboardSaga } from '../features/dashboard/dashboard-saga';
import { depositsSaga } from '../features/deposits/deposits-saga';
import { invitesSaga } from '../features/invites/invites-saga';
import { liveChatSaga } from '../features/live-chat/live-chat-saga';
import { orderLabelSaga } from '../features/order-label/order-label-saga';
import { ordersSaga } from '../features/orders/orders-saga';
import { skuSaga } from '../features/skus/sku-saga';
import { socketSaga } from './socket-saga';

export function* rootSaga(): SagaIterator {
  yield all([
    fork(authSaga),
    fork(passwordResetSaga),
    fork(accountSaga),
    fork(addressSaga),
    fork(dashboardSaga),
    fork(depositsSaga),
    fork(invitesSaga),
    fork(liveChatSaga),
    fork(orderLabelSaga),
    fork(ordersSaga),
    fork(skuSaga),
    fork(batchOrdersSaga),
    fork(bulkOrderSaga),
    fork(bulkProgressSaga),
    fork(adminUsersSaga),
    fork(userServicesSaga),
    fork(socketSaga),
    fork(rankingsSaga),
    fork(orderLabelsSaga),
    fork(defaultServicesSaga),
    fork(referralSaga),
    fork(adminDashboardSaga),
  ]);
}
