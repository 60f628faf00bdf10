import { registerFeature } from '../../app/store';
import { passwordResetSaga } from './password-reset-saga';
import { passwordResetReducer } from './password-reset-slice';

/** The forgot / reset password pages' state and saga, downloaded with those pages. */
registerFeature({ name: 'password-reset', reducers: { passwordReset: passwordResetReducer }, saga: passwordResetSaga });
