import {
  type Activation,
  ADMIN_USERS_DEFAULT_QUERY,
  type AdminUserSort,
  type AdminUsersQuery,
  type AdminUsersReply,
  type AuditReply,
  type LoginAsReply,
  type ResetLinkReply,
  type Role,
} from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface AdminUsersTableQuery {
  page: number;
  limit: number;
  search: string;
  sort: AdminUserSort;
  order: 'asc' | 'desc';
}

export type DetailsChange = { userId: string } & ({ balance: number } | { referralCode: string });

export interface AdminUsersState {
  query: AdminUsersTableQuery;
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  reply: AdminUsersReply | null;
  /** Rows with a change in flight: their controls wait. */
  busyIds: string[];
  /** Login As answered: the page switches the session and moves on after the delay. */
  loginAs: LoginAsReply | null;
  loginAsUserId: string | null;
  audit: AuditState;
  /** The password reset link being made (`userId`), or made (`reply`) and shown until closed. */
  resetLink: { userId: string | null; reply: ResetLinkReply | null };
}

/** Whose Login As activity is shown: everyone's, or one user's. */
export interface AuditFilter {
  userId: string;
  /** How the filter names the user, e.g. their name and email. */
  label: string;
}

export interface AuditState {
  page: number;
  filter: AuditFilter | null;
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  reply: AuditReply | null;
}

const initialState: AdminUsersState = {
  query: { ...ADMIN_USERS_DEFAULT_QUERY, search: '' },
  status: 'idle',
  reply: null,
  busyIds: [],
  loginAs: null,
  loginAsUserId: null,
  audit: { page: 1, filter: null, status: 'idle', reply: null },
  resetLink: { userId: null, reply: null },
};

const busy = (state: AdminUsersState, userId: string) => {
  if (!state.busyIds.includes(userId)) state.busyIds.push(userId);
};
const idle = (state: AdminUsersState, userId: string) => {
  state.busyIds = state.busyIds.filter((id) => id !== userId);
};

/** The query as GET /api/auth/users takes it. */
export function toUsersQuery(query: AdminUsersTableQuery): AdminUsersQuery {
  const { search, ...rest } = query;
  const trimmed = search.trim();
  return trimmed ? { ...rest, search: trimmed } : rest;
}

export const adminUsersSlice = createSlice({
  name: 'adminUsers',
  initialState,
  reducers: {
    /** The page opened, or a write asks for the current page again. */
    usersRequested(state) {
      state.status = 'loading';
    },
    /** Search, sort, page or page size changed: the server answers for the new query. */
    usersQueryChanged(state, action: PayloadAction<Partial<AdminUsersTableQuery>>) {
      state.query = { ...state.query, ...action.payload };
      state.status = 'loading';
    },
    usersLoaded(state, action: PayloadAction<AdminUsersReply>) {
      state.status = 'succeeded';
      state.reply = action.payload;
    },
    usersLoadFailed(state) {
      state.status = 'failed';
    },
    userDetailsSubmitted(state, action: PayloadAction<DetailsChange>) {
      busy(state, action.payload.userId);
    },
    userRoleSubmitted(state, action: PayloadAction<{ userId: string; role: Role }>) {
      busy(state, action.payload.userId);
    },
    userActivationSubmitted(state, action: PayloadAction<{ userId: string; activation: Activation }>) {
      busy(state, action.payload.userId);
    },
    userDeleteSubmitted(state, action: PayloadAction<{ userId: string }>) {
      busy(state, action.payload.userId);
    },
    /** A change ended, saved or not. */
    userChangeSettled(state, action: PayloadAction<string>) {
      idle(state, action.payload);
    },
    loginAsSubmitted(state, action: PayloadAction<string>) {
      state.loginAsUserId = action.payload;
      state.loginAs = null;
    },
    loginAsSucceeded(state, action: PayloadAction<LoginAsReply>) {
      state.loginAs = action.payload;
    },
    loginAsFailed(state) {
      state.loginAsUserId = null;
    },
    /** The session switched to the user, or the admin left the page first: nothing is pending any more. */
    loginAsCompleted(state) {
      state.loginAs = null;
      state.loginAsUserId = null;
    },
    /** The activity table opened, paged or filtered; an absent part keeps its value. */
    auditRequested(state, action: PayloadAction<{ page?: number; filter?: AuditFilter | null }>) {
      const { page, filter } = action.payload;
      if (filter !== undefined) {
        state.audit.filter = filter;
        state.audit.page = 1;
      }
      if (page !== undefined) state.audit.page = page;
      state.audit.status = 'loading';
    },
    auditLoaded(state, action: PayloadAction<AuditReply>) {
      state.audit.status = 'succeeded';
      state.audit.reply = action.payload;
    },
    auditLoadFailed(state) {
      state.audit.status = 'failed';
    },
    resetLinkRequested(state, action: PayloadAction<string>) {
      state.resetLink = { userId: action.payload, reply: null };
    },
    /** A link made after its dialog was closed is not shown. */
    resetLinkCreated(state, action: PayloadAction<{ userId: string; reply: ResetLinkReply }>) {
      if (state.resetLink.userId === action.payload.userId) state.resetLink.reply = action.payload.reply;
    },
    /** The link failed, or its dialog was closed. */
    resetLinkClosed(state) {
      state.resetLink = { userId: null, reply: null };
    },
  },
});

export const {
  usersRequested,
  usersQueryChanged,
  usersLoaded,
  usersLoadFailed,
  userDetailsSubmitted,
  userRoleSubmitted,
  userActivationSubmitted,
  userDeleteSubmitted,
  userChangeSettled,
  loginAsSubmitted,
  loginAsSucceeded,
  loginAsFailed,
  loginAsCompleted,
  auditRequested,
  auditLoaded,
  auditLoadFailed,
  resetLinkRequested,
  resetLinkCreated,
  resetLinkClosed,
} = adminUsersSlice.actions;
export const adminUsersReducer = adminUsersSlice.reducer;
