import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { toastReducer } from '../components/toast-slice';
import { accountReducer } from '../features/account/account-slice';
import { addressesReducer } from '../features/addresses/address-slice';
import { adminDashboardReducer } from '../features/admin/dashboard/admin-dashboard-slice';
import { defaultServicesReducer } from '../features/admin/default-services/default-services-slice';
import { orderLabelsReducer } from '../features/admin/order-labels/order-labels-slice';
import { rankingsReducer } from '../features/admin/rankings/rankings-slice';
import { referralReducer } from '../features/admin/referrals/referral-slice';
import { userServicesReducer } from '../features/admin/services/user-services-slice';
import { adminUsersReducer } from '../features/admin/users/admin-users-slice';
import { authReducer } from '../features/auth/auth-slice';
import { passwordResetReducer } from '../features/auth/password-reset-slice';
import { batchOrdersReducer } from '../features/batch-orders/batch-orders-slice';
import { bulkOrderReducer } from '../features/bulk-order/bulk-order-slice';
import { bulkDownloadReducer } from '../features/bulk-progress/bulk-download-slice';
import { bulkProgressReducer } from '../features/bulk-progress/bulk-progress-slice';
import { dashboardReducer } from '../features/dashboard/dashboard-slice';
import { depositsReducer } from '../features/deposits/deposits-slice';
import { invitesReducer } from '../features/invites/invites-slice';
import { orderLabelReducer } from '../features/order-label/order-label-slice';
import { ordersReducer } from '../features/orders/orders-slice';
import { skusReducer } from '../features/skus/sku-slice';
import { rootSaga } from './root-saga';
import type { SocketContext } from './socket-saga';

// Every reducer is registered here, up front: no runtime injection.
const rootReducer = combineReducers({
  auth: authReducer,
  batchOrders: batchOrdersReducer,
  bulkDownloads: bulkDownloadReducer,
  bulkOrder: bulkOrderReducer,
  bulkProgress: bulkProgressReducer,
  account: accountReducer,
  addresses: addressesReducer,
  adminUsers: adminUsersReducer,
  adminDashboard: adminDashboardReducer,
  dashboard: dashboardReducer,
  defaultServices: defaultServicesReducer,
  deposits: depositsReducer,
  invites: invitesReducer,
  orderLabel: orderLabelReducer,
  orders: ordersReducer,
  orderLabels: orderLabelsReducer,
  rankings: rankingsReducer,
  referral: referralReducer,
  passwordReset: passwordResetReducer,
  skus: skusReducer,
  toast: toastReducer,
  userServices: userServicesReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/**
 * A fresh store with its sagas running; tests build one per render. `socket`
 * points the real-time connection elsewhere (tests run their own server).
 */
export function createAppStore(options: { socket?: SocketContext } = {}) {
  const sagaMiddleware = createSagaMiddleware({
    context: { ...options.socket },
    onError: (error) => console.error('Unhandled saga error', error),
  });
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
  });
  sagaMiddleware.run(rootSaga);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
