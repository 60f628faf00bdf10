import { all, fork } from 'redux-saga/effects';
import { registerFeature } from '../../app/store';
import { accountSaga } from '../account/account-saga';
import { accountReducer } from '../account/account-slice';
import { addressCheckSaga } from '../address-check/address-check-saga';
import { addressCheckReducer } from '../address-check/address-check-slice';
import { addressSaga } from '../addresses/address-saga';
import { addressesReducer } from '../addresses/address-slice';
import { batchOrdersSaga } from '../batch-orders/batch-orders-saga';
import { batchOrdersReducer } from '../batch-orders/batch-orders-slice';
import { bulkAddressCheckSaga } from '../bulk-order/bulk-address-check-saga';
import { bulkAddressCheckReducer } from '../bulk-order/bulk-address-check-slice';
import { bulkOrderSaga } from '../bulk-order/bulk-order-saga';
import { bulkOrderReducer } from '../bulk-order/bulk-order-slice';
import { bulkDownloadReducer } from '../bulk-progress/bulk-download-slice';
import { bulkProgressSaga } from '../bulk-progress/bulk-progress-saga';
import { bulkProgressReducer } from '../bulk-progress/bulk-progress-slice';
import { dashboardSaga } from '../dashboard/dashboard-saga';
import { dashboardReducer } from '../dashboard/dashboard-slice';
import { depositsSaga } from '../deposits/deposits-saga';
import { depositsReducer } from '../deposits/deposits-slice';
import { invitesSaga } from '../invites/invites-saga';
import { invitesReducer } from '../invites/invites-slice';
import { orderLabelSaga } from '../order-label/order-label-saga';
import { orderLabelReducer } from '../order-label/order-label-slice';
import { ordersSaga } from '../orders/orders-saga';
import { ordersReducer } from '../orders/orders-slice';
import { printSettingsSaga } from '../print-settings/print-settings-saga';
import { printSettingsReducer } from '../print-settings/print-settings-slice';
import { refundsSaga } from '../refunds/refunds-saga';
import { refundsReducer } from '../refunds/refunds-slice';
import { scanFormsSaga } from '../scan-forms/scan-forms-saga';
import { scanFormsReducer } from '../scan-forms/scan-forms-slice';
import { skuSaga } from '../skus/sku-saga';
import { skusReducer } from '../skus/sku-slice';
import { trackingSaga } from '../tracking/tracking-saga';
import { trackingReducer } from '../tracking/tracking-slice';

/**
 * The signed-in user area's state and sagas (/main/*). Imported by the shell and by each of its
 * pages, so whichever arrives first brings them; a visitor of the public pages never downloads them.
 */
registerFeature({
  name: 'user-area',
  reducers: {
    account: accountReducer,
    addressCheck: addressCheckReducer,
    addresses: addressesReducer,
    batchOrders: batchOrdersReducer,
    bulkAddressCheck: bulkAddressCheckReducer,
    bulkDownloads: bulkDownloadReducer,
    bulkOrder: bulkOrderReducer,
    bulkProgress: bulkProgressReducer,
    dashboard: dashboardReducer,
    deposits: depositsReducer,
    invites: invitesReducer,
    orderLabel: orderLabelReducer,
    orders: ordersReducer,
    printSettings: printSettingsReducer,
    refunds: refundsReducer,
    scanForms: scanFormsReducer,
    skus: skusReducer,
    tracking: trackingReducer,
  },
  *saga() {
    yield all([
      fork(accountSaga),
      fork(addressSaga),
      fork(dashboardSaga),
      fork(depositsSaga),
      fork(invitesSaga),
      fork(orderLabelSaga),
      fork(ordersSaga),
      fork(skuSaga),
      fork(batchOrdersSaga),
      fork(bulkOrderSaga),
      fork(bulkAddressCheckSaga),
      fork(addressCheckSaga),
      fork(bulkProgressSaga),
      fork(refundsSaga),
      fork(scanFormsSaga),
      fork(printSettingsSaga),
      fork(trackingSaga),
    ]);
  },
});
