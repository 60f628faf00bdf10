import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { toastReducer } from '../components/toast-slice';
import { accountReducer } from '../features/account/account-slice';
import { addressesReducer } from '../features/addresses/address-slice';
import { authReducer } from '../features/auth/auth-slice';
import { dashboardReducer } from '../features/dashboard/dashboard-slice';
import { orderLabelReducer } from '../features/order-label/order-label-slice';
import { ordersReducer } from '../features/orders/orders-slice';
import { rootSaga } from './root-saga';

// Every reducer is registered here, up front: no runtime injection.
const rootReducer = combineReducers({
  auth: authReducer,
  account: accountReducer,
  addresses: addressesReducer,
  dashboard: dashboardReducer,
  orderLabel: orderLabelReducer,
  orders: ordersReducer,
  toast: toastReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** A fresh store with its sagas running; tests build one per render. */
export function createAppStore() {
  const sagaMiddleware = createSagaMiddleware({
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
