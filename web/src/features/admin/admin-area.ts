import { all, fork } from 'redux-saga/effects';
import { registerFeature } from '../../app/store';
import { adminDashboardSaga } from './dashboard/admin-dashboard-saga';
import { adminDashboardReducer } from './dashboard/admin-dashboard-slice';
import { defaultServicesSaga } from './default-services/default-services-saga';
import { defaultServicesReducer } from './default-services/default-services-slice';
import { orderLabelsSaga } from './order-labels/order-labels-saga';
import { orderLabelsReducer } from './order-labels/order-labels-slice';
import { rankingsSaga } from './rankings/rankings-saga';
import { rankingsReducer } from './rankings/rankings-slice';
import { referralBonusSettingsSaga } from './referral-bonus/referral-bonus-saga';
import { referralBonusSettingsReducer } from './referral-bonus/referral-bonus-slice';
import { referralSaga } from './referrals/referral-saga';
import { referralReducer } from './referrals/referral-slice';
import { userServicesSaga } from './services/user-services-saga';
import { userServicesReducer } from './services/user-services-slice';
import { adminUsersSaga } from './users/admin-users-saga';
import { adminUsersReducer } from './users/admin-users-slice';

/**
 * The admin area's state and sagas (/admin/*, and the sample admin page under /main). Imported by the
 * admin layout and each admin page, so whichever arrives first brings them; customers never download them.
 */
registerFeature({
  name: 'admin-area',
  reducers: {
    adminDashboard: adminDashboardReducer,
    adminUsers: adminUsersReducer,
    defaultServices: defaultServicesReducer,
    orderLabels: orderLabelsReducer,
    rankings: rankingsReducer,
    referral: referralReducer,
    referralBonusSettings: referralBonusSettingsReducer,
    userServices: userServicesReducer,
  },
  *saga() {
    yield all([
      fork(adminUsersSaga),
      fork(userServicesSaga),
      fork(rankingsSaga),
      fork(orderLabelsSaga),
      fork(defaultServicesSaga),
      fork(referralSaga),
      fork(referralBonusSettingsSaga),
      fork(adminDashboardSaga),
    ]);
  },
});
