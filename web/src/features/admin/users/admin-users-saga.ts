import type {
  AdminUserChangeReply,
  AdminUserDeleteReply,
  AdminUsersReply,
  AuditReply,
  LoginAsReply,
  ResetLinkReply,
  UserDetailsReply,
} from '@flatship/proto';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { serverMessage } from '../../../app/server-message';
import { toastShown } from '../../../components/toast-slice';
import { adminUsersApi } from './admin-users-api';
import { ADMIN_USERS_MESSAGES, AUDIT_PAGE_SIZE } from './admin-users-messages';
import { selectAudit, selectUsersQuery } from './admin-users-selectors';
import {
  type AdminUsersTableQuery,
  type AuditState,
  auditLoaded,
  auditLoadFailed,
  auditRequested,
  type DetailsChange,
  loginAsFailed,
  loginAsSubmitted,
  loginAsSucceeded,
  resetLinkClosed,
  resetLinkCreated,
  resetLinkRequested,
  toUsersQuery,
  userActivationSubmitted,
  userChangeSettled,
  userDeleteSubmitted,
  userDetailsSubmitted,
  userRoleSubmitted,
  usersLoaded,
  usersLoadFailed,
  usersQueryChanged,
  usersRequested,
} from './admin-users-slice';

const failed = (message: string, error: unknown) =>
  put(toastShown({ kind: 'error', message, detail: serverMessage(error) }));

export function* loadUsers(): SagaIterator {
  const query: AdminUsersTableQuery = yield select(selectUsersQuery);
  try {
    const reply: AdminUsersReply = yield call(adminUsersApi.list, toUsersQuery(query));
    yield put(usersLoaded(reply));
  } catch (error) {
    yield put(usersLoadFailed());
    yield failed(ADMIN_USERS_MESSAGES.loadFailed, error);
  }
}

/** After a change the table (and its totals) is read again; a failure here is its own message. */
function* refreshUsers(): SagaIterator {
  const query: AdminUsersTableQuery = yield select(selectUsersQuery);
  try {
    const reply: AdminUsersReply = yield call(adminUsersApi.list, toUsersQuery(query));
    yield put(usersLoaded(reply));
  } catch {
    yield put(toastShown({ kind: 'error', message: ADMIN_USERS_MESSAGES.refreshFailed }));
  }
}

/** Runs one change: success shows the server's message and reloads the table; failure shows `failure`. */
function* change(userId: string, failure: string, send: () => Promise<{ message: string }>): SagaIterator {
  try {
    const reply: { message: string } = yield call(send);
    yield put(toastShown({ kind: 'success', message: reply.message }));
    yield call(refreshUsers);
  } catch (error) {
    yield failed(failure, error);
  } finally {
    yield put(userChangeSettled(userId));
  }
}

function* saveDetails(action: PayloadAction<DetailsChange>): SagaIterator {
  const { userId, ...body } = action.payload;
  yield call(
    change,
    userId,
    ADMIN_USERS_MESSAGES.detailsFailed,
    (): Promise<UserDetailsReply> => adminUsersApi.saveDetails(userId, body),
  );
}

function* setRole(action: ReturnType<typeof userRoleSubmitted>): SagaIterator {
  const { userId, role } = action.payload;
  yield call(
    change,
    userId,
    ADMIN_USERS_MESSAGES.roleFailed,
    (): Promise<AdminUserChangeReply> => adminUsersApi.setRole(userId, { user_role: role }),
  );
}

function* setActivation(action: ReturnType<typeof userActivationSubmitted>): SagaIterator {
  const { userId, activation } = action.payload;
  yield call(
    change,
    userId,
    ADMIN_USERS_MESSAGES.accessFailed,
    (): Promise<AdminUserChangeReply> => adminUsersApi.setActivation(userId, { activation }),
  );
}

function* deleteUser(action: ReturnType<typeof userDeleteSubmitted>): SagaIterator {
  const { userId } = action.payload;
  yield call(
    change,
    userId,
    ADMIN_USERS_MESSAGES.deleteFailed,
    (): Promise<AdminUserDeleteReply> => adminUsersApi.remove(userId),
  );
}

function* loginAs(action: PayloadAction<string>): SagaIterator {
  try {
    const reply: LoginAsReply = yield call(adminUsersApi.loginAs, action.payload);
    yield put(toastShown({ kind: 'success', message: reply.message }));
    yield put(loginAsSucceeded(reply));
  } catch (error) {
    yield put(loginAsFailed());
    yield failed(ADMIN_USERS_MESSAGES.loginAsFailed, error);
  }
}

export function* loadAudit(): SagaIterator {
  const audit: AuditState = yield select(selectAudit);
  try {
    const reply: AuditReply = yield call(adminUsersApi.audit, {
      page: audit.page,
      limit: AUDIT_PAGE_SIZE,
      ...(audit.filter ? { userId: audit.filter.userId } : {}),
    });
    yield put(auditLoaded(reply));
  } catch (error) {
    console.error('User management: loading Login As activity failed', error);
    yield put(auditLoadFailed());
  }
}

function* createResetLink(action: PayloadAction<string>): SagaIterator {
  try {
    const reply: ResetLinkReply = yield call(adminUsersApi.resetLink, action.payload);
    yield put(resetLinkCreated({ userId: action.payload, reply }));
  } catch (error) {
    yield put(resetLinkClosed());
    yield put(toastShown({ kind: 'error', message: serverMessage(error) ?? ADMIN_USERS_MESSAGES.resetLinkFailed }));
  }
}

export function* adminUsersSaga(): SagaIterator {
  yield all([
    // Query: each keystroke, sort or page supersedes the one before; only the newest answer is shown.
    takeLatest([usersRequested.type, usersQueryChanged.type], loadUsers),
    // Changes to different users are independent; the row's controls wait while its own change runs.
    takeEvery(userDetailsSubmitted.type, saveDetails),
    takeEvery(userRoleSubmitted.type, setRole),
    takeEvery(userActivationSubmitted.type, setActivation),
    takeEvery(userDeleteSubmitted.type, deleteUser),
    // One Login As at a time: a second click while the first runs is ignored.
    takeLeading(loginAsSubmitted.type, loginAs),
    // Activity: a later page or filter supersedes the one before.
    takeLatest(auditRequested.type, loadAudit),
    // The dialog shows the link asked for last; one asked for before it was closed is dropped.
    takeLatest(resetLinkRequested.type, createResetLink),
  ]);
}
