import { combineReducers, configureStore, type Reducer, type UnknownAction } from '@reduxjs/toolkit';
import createSagaMiddleware, { type Saga } from 'redux-saga';
import { toastReducer } from '../components/toast-slice';
import type { accountReducer } from '../features/account/account-slice';
import type { addressCheckReducer } from '../features/address-check/address-check-slice';
import type { addressesReducer } from '../features/addresses/address-slice';
import type { adminDashboardReducer } from '../features/admin/dashboard/admin-dashboard-slice';
import type { defaultServicesReducer } from '../features/admin/default-services/default-services-slice';
import type { orderLabelsReducer } from '../features/admin/order-labels/order-labels-slice';
import type { rankingsReducer } from '../features/admin/rankings/rankings-slice';
import type { referralBonusSettingsReducer } from '../features/admin/referral-bonus/referral-bonus-slice';
import type { referralReducer } from '../features/admin/referrals/referral-slice';
import type { userServicesReducer } from '../features/admin/services/user-services-slice';
import type { adminUsersReducer } from '../features/admin/users/admin-users-slice';
import { authReducer } from '../features/auth/auth-slice';
import type { passwordResetReducer } from '../features/auth/password-reset-slice';
import type { batchOrdersReducer } from '../features/batch-orders/batch-orders-slice';
import type { bulkAddressCheckReducer } from '../features/bulk-order/bulk-address-check-slice';
import type { bulkOrderReducer } from '../features/bulk-order/bulk-order-slice';
import type { bulkDownloadReducer } from '../features/bulk-progress/bulk-download-slice';
import type { bulkProgressReducer } from '../features/bulk-progress/bulk-progress-slice';
import type { dashboardReducer } from '../features/dashboard/dashboard-slice';
import type { depositsReducer } from '../features/deposits/deposits-slice';
import type { invitesReducer } from '../features/invites/invites-slice';
import type { orderLabelReducer } from '../features/order-label/order-label-slice';
import type { ordersReducer } from '../features/orders/orders-slice';
import type { printSettingsReducer } from '../features/print-settings/print-settings-slice';
import type { refundsReducer } from '../features/refunds/refunds-slice';
import type { scanFormsReducer } from '../features/scan-forms/scan-forms-slice';
import type { skusReducer } from '../features/skus/sku-slice';
import type { trackingReducer } from '../features/tracking/tracking-slice';
import { rootSaga } from './root-saga';
import type { SocketContext } from './socket-saga';

/** What every page needs, the public ones included: the session and the notifications. */
const coreReducers = {
  auth: authReducer,
  toast: toastReducer,
};

/**
 * The state of the features that come with their pages' code (see `registerFeature`): present once
 * the first page of that area has been downloaded, which is before any of its screens renders.
 */
interface FeatureState {
  account: ReturnType<typeof accountReducer>;
  addressCheck: ReturnType<typeof addressCheckReducer>;
  addresses: ReturnType<typeof addressesReducer>;
  adminDashboard: ReturnType<typeof adminDashboardReducer>;
  adminUsers: ReturnType<typeof adminUsersReducer>;
  batchOrders: ReturnType<typeof batchOrdersReducer>;
  bulkAddressCheck: ReturnType<typeof bulkAddressCheckReducer>;
  bulkDownloads: ReturnType<typeof bulkDownloadReducer>;
  bulkOrder: ReturnType<typeof bulkOrderReducer>;
  bulkProgress: ReturnType<typeof bulkProgressReducer>;
  dashboard: ReturnType<typeof dashboardReducer>;
  defaultServices: ReturnType<typeof defaultServicesReducer>;
  deposits: ReturnType<typeof depositsReducer>;
  invites: ReturnType<typeof invitesReducer>;
  orderLabel: ReturnType<typeof orderLabelReducer>;
  orderLabels: ReturnType<typeof orderLabelsReducer>;
  orders: ReturnType<typeof ordersReducer>;
  passwordReset: ReturnType<typeof passwordResetReducer>;
  printSettings: ReturnType<typeof printSettingsReducer>;
  rankings: ReturnType<typeof rankingsReducer>;
  referral: ReturnType<typeof referralReducer>;
  referralBonusSettings: ReturnType<typeof referralBonusSettingsReducer>;
  refunds: ReturnType<typeof refundsReducer>;
  scanForms: ReturnType<typeof scanFormsReducer>;
  skus: ReturnType<typeof skusReducer>;
  tracking: ReturnType<typeof trackingReducer>;
  userServices: ReturnType<typeof userServicesReducer>;
}

export type RootState = { [K in keyof typeof coreReducers]: ReturnType<(typeof coreReducers)[K]> } & FeatureState;

/** A part of the app that arrives with its pages: its slices of the state and the saga that serves them. */
export interface Feature {
  name: string;
  reducers: { [K in keyof FeatureState]?: Reducer<FeatureState[K], UnknownAction> };
  saga: Saga<[]>;
}

const features = new Map<string, Feature>();
const featureListeners = new Set<(feature: Feature) => void>();

/**
 * Adds a feature to every store, present and future (tests build a store per render): its reducers join the
 * state and its saga starts. Called by a page chunk as it loads; a second call with the same name does nothing.
 */
export function registerFeature(feature: Feature): void {
  if (features.has(feature.name)) return;
  features.set(feature.name, feature);
  for (const listener of featureListeners) listener(feature);
}

/** Dispatched once a feature's reducers are in, so its state exists before its first screen renders. */
export const featureLoaded = (name: string) => ({ type: 'app/featureLoaded', payload: name });

/**
 * A fresh store with its sagas running; tests build one per render. `socket`
 * points the real-time connection elsewhere (tests run their own server);
 * `runSagas: false` is for rendering pages at build time, where nothing may call out.
 */
export function createAppStore(options: { socket?: SocketContext; runSagas?: boolean } = {}) {
  const sagaMiddleware = createSagaMiddleware({
    context: { ...options.socket },
    onError: (error) => console.error('Unhandled saga error', error),
  });
  const reducers: Record<string, Reducer> = { ...coreReducers };
  for (const feature of features.values()) Object.assign(reducers, feature.reducers);
  const store = configureStore({
    reducer: combineReducers(reducers) as unknown as Reducer<RootState>,
    middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
  });
  const runSagas = options.runSagas ?? true;
  if (runSagas) {
    sagaMiddleware.run(rootSaga);
    for (const feature of features.values()) sagaMiddleware.run(feature.saga);
  }
  featureListeners.add((feature) => {
    Object.assign(reducers, feature.reducers);
    store.replaceReducer(combineReducers(reducers) as unknown as Reducer<RootState>);
    store.dispatch(featureLoaded(feature.name));
    if (runSagas) sagaMiddleware.run(feature.saga);
  });
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
